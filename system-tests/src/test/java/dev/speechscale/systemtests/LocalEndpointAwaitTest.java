package dev.speechscale.systemtests;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The bounded poll every end-to-end test here waits with ({@link LocalEndpoint#await}). */
class LocalEndpointAwaitTest {
  @Test
  void await_asksAgainUntilTheAnswerHolds_andReturnsThatAnswer() throws Exception {
    AtomicInteger asked = new AtomicInteger();

    int answer =
        LocalEndpoint.await(
            "the third answer", Duration.ofSeconds(30), asked::incrementAndGet, n -> n >= 3);

    assertThat(answer).isEqualTo(3);
    assertThat(asked).hasValue(3);
  }

  @Test
  void await_failsNamingTheWaitAndTheLastAnswer_onceTheBoundHasPassed() {
    AtomicInteger asked = new AtomicInteger();

    assertThatThrownBy(() ->
            LocalEndpoint.await(
                "a fleet of two", Duration.ofMillis(400), asked::incrementAndGet, n -> false))
        .isInstanceOf(AssertionError.class)
        .hasMessageStartingWith("timed out after 0.4 s waiting for a fleet of two; last: ");
    // asked at once, then once a poll (100 ms) until 400 ms had passed: a poll, not a busy loop
    assertThat(asked.get()).isBetween(2, 5);
  }
}

package dev.speechscale.loadgen;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class RequestListenerTest {

  /** Writes what it is told into a shared list, under its name. */
  private record Recorder(String name, List<String> heard) implements RequestListener {
    @Override
    public void completed(RequestEvent event) {
      heard.add(name + " completed " + event.worker());
    }

    @Override
    public void dropped(int phaseIndex, long seq, long intendedNanos) {
      heard.add(name + " dropped " + seq);
    }

    @Override
    public void flush() {
      heard.add(name + " flush");
    }
  }

  @Test
  void both_tellsFirstThenSecondOfEveryRequestDropAndFlush() {
    List<String> heard = new ArrayList<>();
    RequestListener both = RequestListener.both(new Recorder("a", heard), new Recorder("b", heard));

    both.completed(Events.ok(3, 0, 5, 10));
    both.dropped(0, 7, 0);
    both.flush();

    assertThat(heard)
        .containsExactly(
            "a completed 3", "b completed 3", "a dropped 7", "b dropped 7", "a flush", "b flush");
  }
}

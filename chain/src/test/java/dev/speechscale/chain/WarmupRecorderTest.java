package dev.speechscale.chain;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.speechscale.artifacts.WarmupRamp;
import dev.speechscale.loadgen.RequestEvent;
import dev.speechscale.platform.Invocation.Outcome;
import dev.speechscale.platform.ResponseBreakdown;
import org.junit.jupiter.api.Test;

class WarmupRecorderTest {
  private static final long MS = 1_000_000L;

  /** A request sent at {@code sentMs}, ended {@code responseMs} later, queued {@code queueMs}. */
  static RequestEvent event(Outcome outcome, long sentMs, long responseMs, long queueUs) {
    long sent = sentMs * MS;
    long done = sent + responseMs * MS;
    return new RequestEvent(
        RequestEvent.LoadModel.CLOSED_LOOP,
        -1,
        -1,
        4,
        0,
        0,
        sent,
        sent,
        outcome == Outcome.OK ? done - MS : -1,
        done,
        outcome,
        outcome == Outcome.OK ? 200 : 503,
        100,
        10,
        null,
        new ResponseBreakdown(queueUs, 1000, 1.0, null));
  }

  @Test
  void ramp_servedInCompletionOrder_lessTheQueueWait() {
    WarmupRecorder r = new WarmupRecorder();
    // delivered out of order: the ramp follows completion time. 0-3 take 300 ms of service, 4-7
    // 100 ms; every response also waited 200 ms in the queue, which is not service
    for (int i = 7; i >= 0; i--) {
      long service = i < 4 ? 300 : 100;
      r.completed(event(Outcome.OK, i * 1000L, service + 200, 200_000));
    }
    r.completed(event(Outcome.REJECTED, 50, 5, 0)); // refused: not served, not counted

    WarmupRamp ramp = r.ramp();

    assertThat(ramp).isNotNull();
    assertThat(ramp.requests()).isEqualTo(8);
    assertThat(ramp.concurrency()).isEqualTo(4);
    assertThat(ramp.referenceServiceMs()).isCloseTo(100, within(1e-6));
    assertThat(ramp.buckets()).hasSize(1);
    assertThat(ramp.buckets().getFirst().serviceMsMean()).isCloseTo(300, within(1e-6));
  }

  @Test
  void ramp_aResponseWithoutItsQueueWait_isNone() {
    WarmupRecorder r = new WarmupRecorder();
    for (int i = 0; i < 8; i++) {
      r.completed(event(Outcome.OK, i * 1000L, 100, i == 3 ? -1 : 0));
    }

    assertThat(r.ramp()).isNull();
  }

  @Test
  void ramp_noWarmup_isNone() {
    assertThat(new WarmupRecorder().ramp()).isNull();
  }
}

package dev.speechscale.chain;

import dev.speechscale.platform.Invocation;
import dev.speechscale.platform.Invoker;
import dev.speechscale.platform.ResponseBreakdown;
import dev.speechscale.platform.SynthesisRequest;
import dev.speechscale.platform.Transport;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongUnaryOperator;

/**
 * An endpoint on fake time for qmax tests: each request moves {@code nowNanos} on by the current
 * {@code firstAudioNanos} to its first audio and by as much again to its end.
 */
final class FakeTimedEndpoint {
  private FakeTimedEndpoint() {}

  static Invoker of(AtomicLong nowNanos, AtomicLong firstAudioNanos) {
    return of(nowNanos, sentNanos -> firstAudioNanos.get());
  }

  /** The same with the time to first audio a function of the request's send time. */
  static Invoker of(AtomicLong nowNanos, LongUnaryOperator firstAudioAt) {
    return of(nowNanos, firstAudioAt, ResponseBreakdown.UNKNOWN);
  }

  /** The same, each response carrying {@code breakdown} (the server's timing headers). */
  static Invoker of(
      AtomicLong nowNanos, LongUnaryOperator firstAudioAt, ResponseBreakdown breakdown) {
    return new Invoker() {
      @Override
      public Transport transport() {
        return Transport.HTTP_STREAM;
      }

      @Override
      public Connection connect() {
        return new Connection() {
          @Override
          public Invocation invoke(SynthesisRequest request) {
            long sent = nowNanos.get();
            long firstAudio = firstAudioAt.applyAsLong(sent);
            long first = nowNanos.addAndGet(firstAudio);
            long done = nowNanos.addAndGet(firstAudio);
            return new Invocation(
                Invocation.Outcome.OK, 200, sent, first, done, 3200, null, breakdown);
          }

          @Override
          public void close() {}
        };
      }

      @Override
      public void close() {}
    };
  }
}

package dev.speechscale.server;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * The native failure path of {@link FliteEngine}: when the utterance function fails, {@code
 * flite_do_synth} frees the utterance itself and returns NULL, so the engine must not free it again
 * (issue 11: a double free that aborts or corrupts the process).
 */
class FliteFailurePathTest {

  private static final AtomicLong FAILED_CALLS = new AtomicLong();

  @SuppressWarnings("unused") // called from native code
  private static MemorySegment failingSynth(MemorySegment utterance) {
    FAILED_CALLS.incrementAndGet();
    return MemorySegment.NULL;
  }

  private static MemorySegment failingSynthStub() throws ReflectiveOperationException {
    var target =
        MethodHandles.lookup()
            .findStatic(
                FliteFailurePathTest.class,
                "failingSynth",
                MethodType.methodType(MemorySegment.class, MemorySegment.class));
    return NativeLibraries.LINKER.upcallStub(
        target, FunctionDescriptor.of(ADDRESS, ADDRESS), Arena.global());
  }

  @Test
  void synthesize_utteranceFunctionFails_throwsNamingFliteAndFreesOnce() throws Exception {
    FliteEngine flite = new FliteEngine(1);
    MemorySegment failing = failingSynthStub();
    int attempts =
        500; // a double free of each utterance would abort or corrupt the heap long before
    for (int i = 0; i < attempts; i++) {
      assertThatThrownBy(() ->
              flite.synthesizeThrough(failing, "Hello there, number " + 42, 1.0, (s, o, l) -> true))
          .isInstanceOf(EngineException.class)
          .hasMessageContaining("flite_do_synth")
          .hasMessageContaining("freed the utterance");
    }
    assertThat(FAILED_CALLS.get()).isEqualTo(attempts);

    long samples =
        Synthesized.samples(flite, "Still working after the failures.", FliteEngine.VOICE);
    assertThat(samples).isPositive();
  }
}

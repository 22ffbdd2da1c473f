package dev.speechscale.server;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** A missing native library is reported with advice the reader can follow where the server runs. */
class NativeLibrariesTest {
  private static final String ABSENT = "libspeechscale-absent.so.1";

  @Test
  void load_missingOnAMachine_namesTheAptGetCommand() {
    assertThatThrownBy(() -> NativeLibraries.load(ABSENT, "libespeak-ng1", Map.of()))
        .isInstanceOf(EngineException.class)
        .hasMessageContaining("cannot load " + ABSENT + " (from the Debian package libespeak-ng1)")
        .hasMessageContaining("apt-get install -y libespeak-ng1");
  }

  @Test
  void load_espeakMissingInTheFliteImage_namesTheImageVariantWithEspeak() {
    assertThatThrownBy(() ->
            NativeLibraries.load(
                ABSENT, "libespeak-ng1", Map.of(NativeLibraries.IMAGE_ENGINES, "flite")))
        .isInstanceOf(EngineException.class)
        .hasMessageContaining(
            "this container's image (engines flite) was built without libespeak-ng1")
        .hasMessageContaining("dev.speechscale.engines=flite,espeak,kokoro")
        .hasMessageContaining("bin/image build --gpu")
        .hasMessageContaining(
            "SS_IMAGE_PACKAGES=\"libflite1 libmp3lame0 libespeak-ng1 espeak-ng-data\"")
        .hasMessageNotContaining("apt-get");
  }

  @Test
  void load_otherPackageMissingInTheImage_namesAnImageBuiltWithIt() {
    assertThatThrownBy(() ->
            NativeLibraries.load(
                ABSENT, "libmp3lame0", Map.of(NativeLibraries.IMAGE_ENGINES, "flite")))
        .hasMessageContaining("`bin/image build` with libmp3lame0 in SS_IMAGE_PACKAGES")
        .hasMessageNotContaining("apt-get");
  }
}

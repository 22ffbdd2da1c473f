package dev.speechscale.server;

import java.util.Locale;

/** The engines speech-server can run, with the Debian package each needs. */
enum EngineKind {
  FLITE("libflite1"),
  ESPEAK("libespeak-ng1"),
  KOKORO("libespeak-ng1");

  final String debianPackage;

  EngineKind(String debianPackage) {
    this.debianPackage = debianPackage;
  }

  String cliName() {
    return name().toLowerCase(Locale.ROOT);
  }

  static EngineKind parse(String value) {
    for (EngineKind k : values()) {
      if (k.cliName().equals(value)) {
        return k;
      }
    }
    throw new UsageException("--engine / ENGINE (" + value + ") must be flite, espeak or kokoro");
  }
}

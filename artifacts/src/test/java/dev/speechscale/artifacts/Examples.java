package dev.speechscale.artifacts;

import java.nio.file.Path;

/** The committed example artifacts, found from the module directory Surefire runs in. */
final class Examples {
  private Examples() {}

  static final Path DIR = Path.of("..", "examples", "kokoro-82m");
  static final Path QMAX = DIR.resolve("qmax-kokoro-82m-response-stream-g5xlarge-8b1b96bc.json");
  static final Path TTOTAL = DIR.resolve("ttotal-kokoro-82m-force-desired-g5xlarge-8b1b96bc.json");
}

package dev.speechscale.artifacts;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every artifact committed under {@code examples/} and {@code testdata/} is valid against its
 * kind's schema, so a re-recorded example cannot land with a file other tools would refuse.
 */
class ExamplesValidateTest {

  @Test
  void everyCommittedArtifact_validatesAgainstItsSchema() throws IOException {
    List<Path> files;
    try (Stream<Path> examples = Files.walk(Path.of("..", "examples"));
        Stream<Path> testdata = Files.walk(Path.of("..", "testdata"))) {
      files =
          Stream.concat(examples, testdata)
              .filter(p -> p.toString().endsWith(".json"))
              .sorted()
              .toList();
    }
    assertThat(files).hasSizeGreaterThan(10);
    for (Path file : files) {
      String json = Files.readString(file);
      String kind = ArtifactCodec.mapper().readTree(json).path("kind").asString("");
      ArtifactKind k = ArtifactKind.valueOf(kind.toUpperCase(Locale.ROOT));

      assertThat(ArtifactCodec.validate(k, json)).as(file.toString()).isEmpty();
    }
  }
}

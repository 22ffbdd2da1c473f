package dev.speechscale.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import org.junit.jupiter.api.Test;

/**
 * A file that cannot be read is reported with its reason, not its path twice (issue 37: "cannot
 * read /opt/ml/model/config.json: /opt/ml/model/config.json" for a permission denied). These run as
 * root here, where no permission is ever denied, so the exceptions are made by hand.
 */
class IoReasonsTest {
  private static final String CONFIG = "/opt/ml/model/config.json";

  @Test
  void of_accessDenied_namesThePermissionTheUidAndTheFix() {
    String reason = IoReasons.of(new AccessDeniedException(CONFIG));
    assertThat(reason)
        .startsWith("permission denied for this process (uid ")
        .contains("chmod a+r")
        .doesNotContain(CONFIG);
  }

  @Test
  void of_missingFileAndOtherFileSystemFailures_sayWhatHappened() {
    assertThat(IoReasons.of(new NoSuchFileException(CONFIG))).isEqualTo("no such file");
    assertThat(IoReasons.of(new FileSystemException(CONFIG, null, "Is a directory")))
        .isEqualTo("Is a directory");
    assertThat(IoReasons.of(new IOException("Input/output error"))).isEqualTo("Input/output error");
  }
}

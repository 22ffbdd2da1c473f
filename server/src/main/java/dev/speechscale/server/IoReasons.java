package dev.speechscale.server;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;

/**
 * Why a file could not be read, in words. A {@link FileSystemException}'s message is only the path
 * ({@code cannot read /opt/ml/model/config.json: /opt/ml/model/config.json} said nothing of the
 * permission denied for uid 10001 behind it, issue 37), so its kind and its reason are named.
 */
final class IoReasons {
  private IoReasons() {}

  /** The reason, without the path when the caller already names it. */
  static String of(IOException e) {
    String kind =
        switch (e) {
          case AccessDeniedException a ->
              "permission denied for this process (uid "
                  + uid()
                  + "); make it readable, e.g. chmod a+r, or mount it readable";
          case NoSuchFileException n -> "no such file";
          case NotDirectoryException d -> "not a directory";
          case FileSystemException f ->
              f.getReason() != null ? f.getReason() : f.getClass().getSimpleName();
          default -> String.valueOf(e.getMessage());
        };
    return kind;
  }

  private static String uid() {
    try {
      Object uid =
          java.nio.file.Files.getAttribute(java.nio.file.Path.of("/proc/self"), "unix:uid");
      return String.valueOf(uid);
    } catch (IOException | UnsupportedOperationException | IllegalArgumentException e) {
      return "unknown";
    }
  }
}

package dev.speechscale.artifacts;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;

/** The version of the tool, stamped into every artifact. */
public final class ToolVersion {
  private static final String VERSION = load();

  private ToolVersion() {}

  public static String current() {
    return VERSION;
  }

  private static String load() {
    try (InputStream in = ToolVersion.class.getResourceAsStream("version.properties")) {
      if (in == null) {
        return "unknown";
      }
      Properties p = new Properties();
      p.load(in);
      return "speechscale " + p.getProperty("version", "unknown");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}

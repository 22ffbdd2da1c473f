package dev.speechscale.cli;

import dev.speechscale.artifacts.ToolVersion;
import picocli.CommandLine;

/** Prints the tool version stamped into artifacts. */
final class VersionProvider implements CommandLine.IVersionProvider {
  @Override
  public String[] getVersion() {
    return new String[] {ToolVersion.current(), "Java " + System.getProperty("java.version")};
  }
}

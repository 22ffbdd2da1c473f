package dev.speechscale.cli;

import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** A tool's top command ({@code tts-bench}, {@code speech-infra}): alone, it prints its usage. */
abstract class ToolRoot implements Runnable {
  @Spec CommandSpec spec;

  @Override
  public void run() {
    spec.commandLine().usage(spec.commandLine().getOut());
  }
}

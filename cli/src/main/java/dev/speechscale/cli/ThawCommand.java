package dev.speechscale.cli;

import dev.speechscale.chain.Flags;
import dev.speechscale.chain.Thaw;
import dev.speechscale.platform.Platform;
import dev.speechscale.platform.RetryingPlatform;
import java.util.List;
import java.util.concurrent.Callable;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code tts-bench thaw}: resume scaling a hard-killed qmax or ttotal left suspended. Option help:
 * {@code flags.properties}.
 */
@Command(
    name = "thaw",
    mixinStandardHelpOptions = true,
    description =
        "Resume suspended scaling (and with --desired, restore desired capacity) after a"
            + " qmax or ttotal run was killed before it could restore the endpoint.")
final class ThawCommand implements Callable<Integer> {
  @Spec CommandSpec spec;
  @Mixin ChainOptions common;

  @Option(names = Flags.DESIRED, paramLabel = "N")
  @Nullable Integer desired;

  @Override
  public Integer call() {
    List<String> done;
    try (Platform platform = common.open()) {
      java.io.PrintWriter err = spec.commandLine().getErr();
      done =
          Thaw.run(
              RetryingPlatform.of(platform),
              common.endpoint(),
              desired,
              line -> {
                err.println(line);
                err.flush();
              });
    }
    done.forEach(d -> spec.commandLine().getOut().println(common.endpoint() + ": " + d));
    spec.commandLine().getOut().println("next: tts-bench drift --model " + common.model());
    return 0;
  }
}

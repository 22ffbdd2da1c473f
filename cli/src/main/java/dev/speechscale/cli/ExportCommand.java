package dev.speechscale.cli;

import dev.speechscale.artifacts.ArtifactCodec;
import dev.speechscale.artifacts.Exports;
import dev.speechscale.artifacts.QmaxArtifact;
import dev.speechscale.artifacts.QmaxStep;
import dev.speechscale.chain.Flags;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code tts-bench export}: artifacts in formats other tools read. Option help: {@code
 * flags.properties}.
 */
@Command(
    name = "export",
    mixinStandardHelpOptions = true,
    description = {
      "Write a qmax artifact's ladder as CSV and each rung's TTFAB and latency histograms as"
          + " .hgrm (HdrHistogram's percentile distribution, milliseconds), and a --events log"
          + " (qmax or replay) as CSV. Reads files only.",
      "Files: ladder.csv, rung-r<run>-n<N>-s<step>-ttfab.hgrm, ...-latency.hgrm, events.csv."
    })
final class ExportCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Option(names = Flags.QMAX, paramLabel = "FILE")
  @Nullable Path qmax;

  @Mixin EventsOption events;

  @Option(names = Flags.OUTPUT_DIR, paramLabel = "DIR", defaultValue = ".")
  Path outputDir;

  @Override
  public Integer call() throws IOException {
    Path log = events.file;
    if (qmax == null && log == null) {
      throw Cli.usage(spec, "give --qmax FILE, --events FILE or both: there is nothing to export");
    }
    try {
      Files.createDirectories(outputDir);
    } catch (IOException e) {
      throw new CliException(
          Flags.OUTPUT_DIR + " " + outputDir + ": " + e + "; give a folder you can write");
    }
    if (qmax != null) {
      QmaxArtifact q = ArtifactCodec.readQmax(qmax);
      write("ladder.csv", Exports.ladderCsv(q));
      for (QmaxStep s : q.steps()) {
        String stem =
            "rung-r"
                + s.run()
                + "-n"
                + s.concurrency()
                + "-s"
                + (s.stepIndex() == null ? 0 : s.stepIndex());
        if (s.ttfabHistogram() != null) {
          write(stem + "-ttfab.hgrm", Exports.hgrm(s.ttfabHistogram()));
        }
        if (s.latencyHistogram() != null) {
          write(stem + "-latency.hgrm", Exports.hgrm(s.latencyHistogram()));
        }
      }
    }
    if (log != null) {
      if (!Files.isRegularFile(log)) {
        throw new CliException(
            Flags.EVENTS
                + " "
                + log
                + ": no such file; give the file qmax or replay --events wrote");
      }
      List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
      write("events.csv", Exports.eventsCsv(log.toString(), lines));
    }
    return 0;
  }

  private void write(String name, String text) {
    Path file = outputDir.resolve(name);
    try {
      Files.writeString(file, text, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new CliException("cannot write " + file + ": " + e + "; check --output-dir");
    }
    spec.commandLine().getOut().println("wrote " + file);
  }
}

package dev.speechscale.systemtests;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.speechscale.artifacts.ArtifactCodec;
import dev.speechscale.artifacts.ArtifactKind;
import dev.speechscale.artifacts.QmaxArtifact;
import dev.speechscale.artifacts.QmaxStep;
import dev.speechscale.artifacts.StepBreakdown;
import dev.speechscale.platform.Invocation;
import dev.speechscale.platform.Invoker;
import dev.speechscale.platform.SynthesisRequest;
import dev.speechscale.platform.Transport;
import dev.speechscale.platform.local.LocalPlatform;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The server-side breakdown end to end on a real flite instance with one engine slot, through the
 * local router and the real CLI: every rung carries the engine's time to first chunk (nonzero), the
 * queue wait grows once N exceeds the slot, and the audio seconds the load generator counts agree
 * with the WAV's own length.
 */
class BreakdownEndToEndTest {
  private static final String TEXT = "The birch canoe slid on the smooth planks.";

  @TempDir Path dir;

  @Test
  void qmax_oneEngineSlot_engineTimeEveryRungQueueGrowsPastTheSlotAudioMatchesTheWav()
      throws Exception {
    Path state = dir.resolve("state");
    Path config = dir.resolve("endpoints.yaml");
    Files.writeString(
        config,
        """
        models:
          brk:
            engine: flite
            engine_settings: {segmentation: sentence, engine_threads: 1}
            instance_type: local.1cpu
            min_instances: 1
            max_instances: 1
            ttfab_slo_ms: 8000
            queue_max_depth: 0
        """);
    String[] where = {
      "--model", "brk", "--state-dir", state.toString(), "--config", config.toString()
    };
    try (LocalPlatform platform = new LocalPlatform(state)) {
      assertThat(Cli.speechInfra(LocalEndpoint.concat(new String[] {"deploy"}, where)).exitCode())
          .isZero();

      Path qmax = dir.resolve("qmax.json");
      Path events = dir.resolve("events.jsonl");
      Cli q =
          Cli.ttsBench(
              LocalEndpoint.concat(
                  new String[] {
                    "qmax",
                    "--rungs",
                    "1,4",
                    "--no-refine",
                    "--warmup",
                    "2s",
                    "--hold",
                    "4s",
                    "--window",
                    "3s",
                    "--stability-windows",
                    "1",
                    // the breakdown is per rung: the drift re-check (a third rung's time) and the
                    // open-loop idle rung after the ladder (1.5 to 4 windows) add nothing it reads;
                    // ChainEndToEndTest and AwsChainEndToEndTest run both end to end
                    "--drift-check",
                    "off",
                    "--no-idle-rung",
                    "--output",
                    qmax.toString(),
                    "--events",
                    events.toString()
                  },
                  where));
      assertThat(q.exitCode()).as(q.err()).isZero();
      assertThat(ArtifactCodec.validate(ArtifactKind.QMAX, Files.readString(qmax))).isEmpty();
      QmaxArtifact a = ArtifactCodec.readQmax(qmax);
      StepBreakdown one = breakdown(a, 1);
      StepBreakdown four = breakdown(a, 4);
      System.err.println("breakdown N=1: " + one + "\nbreakdown N=4: " + four);
      for (StepBreakdown b : List.of(one, four)) {
        assertThat(b.engineFirstChunkP50Ms()).isPositive();
        assertThat(b.timedRequests()).isPositive();
        assertThat(b.audioMeanS()).isPositive();
      }
      // one slot, four workers: three requests wait behind the one synthesizing
      assertThat(four.queueWaitP50Ms()).isGreaterThan(one.queueWaitP95Ms()).isGreaterThan(1.0);
      assertThat(q.out()).contains("server breakdown per rung").contains("  N=4 ");
      // every request says which instance served it (the local router's header): the one there is
      assertThat(Files.readAllLines(events))
          .allSatisfy(line ->
              assertThat(line)
                  .contains("\"engine_first_chunk_ms\":")
                  .containsPattern("\"instance\":\"[^\"]+\"[,}]"));
      Pattern instance = Pattern.compile("\"instance\":\"([^\"]+)\"");
      assertThat(
              Files.readAllLines(events).stream()
                  .map(instance::matcher)
                  .filter(Matcher::find)
                  .map(m -> m.group(1))
                  .distinct())
          .hasSize(1);

      // the audio seconds the load generator counts against the WAV's own length: the same text
      // buffered, whose header carries real sizes, and the server's X-Audio-Duration
      Invocation streamed;
      try (Invoker invoker = platform.invoker("speech-brk", Transport.HTTP_STREAM);
          Invoker.Connection c = invoker.connect()) {
        streamed = c.invoke(SynthesisRequest.streaming(TEXT));
      }
      assertThat(streamed.ok()).as(String.valueOf(streamed.error())).isTrue();
      HttpResponse<byte[]> buffered =
          HttpClient.newHttpClient()
              .send(
                  HttpRequest.newBuilder(
                          URI.create(platform.routerUri("speech-brk") + "/invocations"))
                      .timeout(Duration.ofSeconds(60))
                      .POST(
                          HttpRequest.BodyPublishers.ofString(
                              new SynthesisRequest(TEXT, null, null, false).toJson()))
                      .build(),
                  HttpResponse.BodyHandlers.ofByteArray());
      assertThat(buffered.statusCode()).isEqualTo(200);
      byte[] wav = buffered.body();
      Path kept = Path.of("target", "breakdown-e2e.wav");
      Files.createDirectories(kept.getParent());
      Files.write(kept, wav); // for a check by hand: sox --i -D target/breakdown-e2e.wav
      ByteBuffer h = ByteBuffer.wrap(wav).order(ByteOrder.LITTLE_ENDIAN);
      double wavSeconds = h.getInt(40) / (double) h.getInt(28); // data size over byte rate
      System.err.printf(
          "audio: load generator %.6f s, WAV header %.6f s, X-Audio-Duration %s s%n",
          streamed.breakdown().audioSeconds(),
          wavSeconds,
          buffered.headers().firstValue("X-Audio-Duration").orElse("?"));
      assertThat(streamed.breakdown().audioSeconds()).isCloseTo(wavSeconds, within(1e-9));
      assertThat(streamed.breakdown().audioSeconds())
          .isCloseTo(
              Double.parseDouble(buffered.headers().firstValue("X-Audio-Duration").orElseThrow()),
              within(0.0005));
      assertThat(streamed.breakdown().engineFirstChunkUs()).isPositive();
      assertThat(streamed.breakdown().queueWaitUs()).isNotNegative();
    } finally {
      Cli.speechInfra("destroy", "--model", "brk", "--state-dir", state.toString());
    }
  }

  private static StepBreakdown breakdown(QmaxArtifact a, int n) {
    QmaxStep step = a.steps().stream().filter(s -> s.concurrency() == n).findFirst().orElseThrow();
    assertThat(step.breakdown()).as("N=" + n + " carries a breakdown").isNotNull();
    return step.breakdown();
  }
}

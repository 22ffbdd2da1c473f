package dev.speechscale.platform.aws;

import static org.assertj.core.api.Assertions.assertThat;

import dev.speechscale.platform.Invocation;
import dev.speechscale.platform.Invoker;
import dev.speechscale.platform.PlatformSettings;
import dev.speechscale.platform.SynthesisRequest;
import dev.speechscale.platform.Transport;
import dev.speechscale.platform.local.LocalPlatform;
import dev.speechscale.platform.local.LocalPlatformProvider;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.regions.Region;

/**
 * The AWS {@code bidi} transport end to end: {@link AwsPlatform#invoker} with the runtime endpoint
 * pointed at a real local endpoint's runtime API (speech-server processes, the Flite engine), the
 * real {@code sagemakerruntimehttp2} client speaking HTTP/2 (h2c with prior knowledge, since the
 * override is {@code http://}) and InvokeEndpointWithBidirectionalStream bridged by the local
 * router to the instance's WebSocket.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class BidiStreamInvokerTest {
  private static final String MODEL = "awsbidi";
  private static final String ENDPOINT = "speech-" + MODEL;

  @TempDir static Path dir;
  private Path config;
  private PlatformSettings local;
  private AwsPlatform platform;

  @BeforeAll
  void deploy() throws Exception {
    config = dir.resolve("endpoints.yaml");
    Files.writeString(
        config,
        """
        models:
          awsbidi: {engine: flite, instance_type: local.1cpu, min_instances: 1, max_instances: 1}
        """);
    local = new PlatformSettings(dir.resolve("state"), null, null, null, null, null);
    assertThat(infra().deploy(config, null)).isZero();
    platform =
        new AwsPlatform(
            AwsApis.sdk(
                Region.US_EAST_1,
                StaticCredentialsProvider.create(AwsBasicCredentials.create("local", "local"))),
            new AwsPlatform.Settings(
                "us-east-1",
                null,
                new LocalPlatform(local.stateDir()).routerUri(ENDPOINT),
                Duration.ofSeconds(60)),
            Clock.systemUTC());
  }

  @AfterAll
  void destroy() {
    if (platform != null) {
      platform.close();
    }
    infra().destroy(config, false);
  }

  private dev.speechscale.platform.Infra infra() {
    PrintStream sink = new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);
    return new LocalPlatformProvider().infra(local, MODEL, sink, System.err);
  }

  @Test
  void invoker_bidi_isTheSdkStreamInvoker() {
    try (Invoker invoker = platform.invoker(ENDPOINT, Transport.BIDI)) {
      assertThat(invoker).isInstanceOf(BidiStreamInvoker.class);
      assertThat(invoker.transport()).isEqualTo(Transport.BIDI);
    }
  }

  @Test
  void invoke_twoRequestsAndAClientErrorOnOneStream_audioForBothAndTheStreamSurvives() {
    try (Invoker invoker = platform.invoker(ENDPOINT, Transport.BIDI);
        Invoker.Connection c = invoker.connect()) {
      Invocation first = c.invoke(SynthesisRequest.streaming("The first request on the stream."));
      Invocation bad = c.invoke(new SynthesisRequest("Too fast.", null, 99.0, true));
      Invocation second = c.invoke(SynthesisRequest.streaming("And the second, on the same one."));

      for (Invocation ok : new Invocation[] {first, second}) {
        assertThat(ok.outcome()).as(ok.error()).isEqualTo(Invocation.Outcome.OK);
        assertThat(ok.status()).isEqualTo(200);
        assertThat(ok.audioBytes()).isGreaterThan(8_000);
        assertThat(ok.firstAudioNanos()).isBetween(ok.sentNanos(), ok.completedNanos());
      }
      assertThat(bad.outcome()).as(bad.error()).isEqualTo(Invocation.Outcome.CLIENT_ERROR);
      assertThat(bad.error()).contains("speed");
    }
  }
}

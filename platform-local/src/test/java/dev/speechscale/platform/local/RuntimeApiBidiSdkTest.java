package dev.speechscale.platform.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.sagemakerruntimehttp2.SageMakerRuntimeHttp2AsyncClient;
import software.amazon.awssdk.services.sagemakerruntimehttp2.model.InputValidationErrorException;
import software.amazon.awssdk.services.sagemakerruntimehttp2.model.InvokeEndpointWithBidirectionalStreamResponseHandler;
import software.amazon.awssdk.services.sagemakerruntimehttp2.model.RequestStreamEvent;
import software.amazon.awssdk.services.sagemakerruntimehttp2.model.ResponsePayloadPart;
import software.amazon.awssdk.utils.async.SimplePublisher;

/**
 * InvokeEndpointWithBidirectionalStream on the local runtime API against the unmodified AWS SDK v2
 * {@code sagemakerruntimehttp2} async client (HTTP/2 over its Netty client, endpoint override to
 * the router's {@code http://} URL, which the client speaks as h2c with prior knowledge), a real
 * endpoint and the Flite engine: two utterances in one stream both come back as audio, and a bad
 * event comes back as the SDK's own exception.
 */
class RuntimeApiBidiSdkTest {
  @TempDir static Path dir;
  static LocalEndpoint endpoint;
  static SageMakerRuntimeHttp2AsyncClient client;

  @BeforeAll
  static void deploy() throws Exception {
    endpoint =
        LocalEndpoint.deploy(
            dir,
            "bidisdk",
            """
            models:
              bidisdk: {engine: flite, instance_type: local.1cpu, min_instances: 1, max_instances: 1}
            """,
            false);
    client = LocalSdkClients.bidi(endpoint.url());
  }

  @AfterAll
  static void destroy() {
    if (client != null) {
      client.close();
    }
    endpoint.close();
  }

  /** What came back on one stream: text events (JSON) and the PCM bytes after each start. */
  private record Received(List<String> texts, List<ByteArrayOutputStream> audio) {}

  private static RequestStreamEvent text(String json) {
    return RequestStreamEvent.payloadPartBuilder()
        .bytes(SdkBytes.fromUtf8String(json))
        .dataType("UTF8")
        .build();
  }

  private static CompletableFuture<Void> stream(
      SimplePublisher<RequestStreamEvent> input, Received received) {
    InvokeEndpointWithBidirectionalStreamResponseHandler handler =
        InvokeEndpointWithBidirectionalStreamResponseHandler.builder()
            .subscriber(
                InvokeEndpointWithBidirectionalStreamResponseHandler.Visitor.builder()
                    .onPayloadPart((ResponsePayloadPart p) -> {
                      if ("UTF8".equals(p.dataType())) {
                        String t = p.bytes().asUtf8String();
                        received.texts().add(t);
                        if (t.contains("synthesis_start")) {
                          received.audio().add(new ByteArrayOutputStream());
                        }
                      } else {
                        received.audio().getLast().writeBytes(p.bytes().asByteArray());
                      }
                    })
                    .build())
            .build();
    return client.invokeEndpointWithBidirectionalStream(
        r -> r.endpointName("speech-bidisdk"), input, handler);
  }

  @Test
  void bidirectionalStream_twoUtterancesInOneStream_audioForBoth() throws Exception {
    Received received =
        new Received(
            Collections.synchronizedList(new ArrayList<>()),
            Collections.synchronizedList(new ArrayList<>()));
    SimplePublisher<RequestStreamEvent> input = new SimplePublisher<>();
    CompletableFuture<Void> done = stream(input, received);

    input.send(text("{\"text\":\"The first sentence of the stream.\",\"request_id\":\"one\"}"));
    input.send(text("{\"text\":\"And a second one, in the same stream.\",\"request_id\":\"two\"}"));
    input.send(text("{\"type\":\"close\"}"));
    input.complete();
    done.get(90, TimeUnit.SECONDS);

    assertThat(received.texts())
        .filteredOn(t -> t.contains("synthesis_complete"))
        .hasSize(2)
        .anySatisfy(t -> assertThat(t).contains("\"one\""))
        .anySatisfy(t -> assertThat(t).contains("\"two\""));
    assertThat(received.audio()).hasSize(2);
    for (ByteArrayOutputStream pcm : received.audio()) {
      byte[] bytes = pcm.toByteArray();
      assertThat(bytes.length).isGreaterThan(8_000);
      assertThat(RuntimeApiSdkTest.rms(bytes, 0)).isGreaterThan(100);
    }
  }

  @Test
  void bidirectionalStream_badFirstEvent_isTheSdksInputValidationError() {
    SimplePublisher<RequestStreamEvent> input = new SimplePublisher<>();
    CompletableFuture<Void> done =
        stream(input, new Received(new ArrayList<>(), new ArrayList<>()));

    input.send(
        RequestStreamEvent.payloadPartBuilder()
            .bytes(SdkBytes.fromString("{\"text\":\"hi\"}", StandardCharsets.UTF_8))
            .dataType("XML")
            .build());
    input.complete();

    assertThatThrownBy(() -> done.get(60, TimeUnit.SECONDS))
        .isInstanceOf(ExecutionException.class)
        .cause()
        .isInstanceOfSatisfying(
            InputValidationErrorException.class,
            e -> {
              assertThat(e.statusCode()).isEqualTo(400);
              assertThat(e.awsErrorDetails().errorMessage())
                  .contains("DataType 'XML'")
                  .contains("UTF8, BINARY");
            });
  }
}

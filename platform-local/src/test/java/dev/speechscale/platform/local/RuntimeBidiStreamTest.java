package dev.speechscale.platform.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.websocket.api.Callback;
import org.eclipse.jetty.websocket.api.Session;
import org.eclipse.jetty.websocket.api.StatusCode;
import org.eclipse.jetty.websocket.server.WebSocketUpgradeHandler;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.awscore.exception.AwsErrorDetails;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.sagemakerruntimehttp2.SageMakerRuntimeHttp2AsyncClient;
import software.amazon.awssdk.services.sagemakerruntimehttp2.model.InvokeEndpointWithBidirectionalStreamResponseHandler;
import software.amazon.awssdk.services.sagemakerruntimehttp2.model.ModelStreamErrorException;
import software.amazon.awssdk.services.sagemakerruntimehttp2.model.RequestStreamEvent;
import software.amazon.awssdk.services.sagemakerruntimehttp2.model.ResponsePayloadPart;
import software.amazon.awssdk.services.sagemakerruntimehttp2.model.SageMakerRuntimeHttp2Exception;
import software.amazon.awssdk.utils.async.SimplePublisher;

/**
 * The router's InvokeEndpointWithBidirectionalStream bridge, in process, against the unmodified SDK
 * client and a WebSocket instance that echoes: data types survive both ways, the instance's close
 * ends the stream (normally, or as {@code ModelStreamError}), a bad event after the first is the
 * SDK's {@code InputValidationErrorException}, and every ending releases the instance's count.
 */
class RuntimeBidiStreamTest {
  private Server instance;
  private Backends backends;
  private Backend backend;
  private Router router;
  private SageMakerRuntimeHttp2AsyncClient client;

  /** Echoes text and binary frames; "bye" closes 1000, "fail" closes 1011. */
  public static final class Echo implements Session.Listener.AutoDemanding {
    private volatile Session session;

    @Override
    public void onWebSocketOpen(Session s) {
      session = s;
    }

    @Override
    public void onWebSocketText(String message) {
      switch (message) {
        case "bye" -> session.close(StatusCode.NORMAL, "bye", Callback.NOOP);
        case "fail" -> session.close(StatusCode.SERVER_ERROR, "engine failed", Callback.NOOP);
        default -> session.sendText("echo:" + message, Callback.NOOP);
      }
    }

    @Override
    public void onWebSocketBinary(ByteBuffer payload, Callback callback) {
      session.sendBinary(payload, callback);
    }
  }

  @BeforeEach
  void start() throws Exception {
    instance = new Server();
    ServerConnector connector = new ServerConnector(instance);
    connector.setHost("127.0.0.1");
    connector.setPort(0);
    instance.addConnector(connector);
    instance.setHandler(
        WebSocketUpgradeHandler.from(
            instance, c -> c.addMapping(Router.BIDI_PATH, (req, resp, cb) -> new Echo())));
    instance.start();
    backends = new Backends();
    backend = new Backend("i-echo", "127.0.0.1", connector.getLocalPort());
    backends.add(backend);
    router = new Router("speech-t", "127.0.0.1", 0, backends, new RequestStats());
    int port = router.start();
    client = LocalSdkClients.bidi("http://127.0.0.1:" + port);
  }

  @AfterEach
  void stop() throws Exception {
    client.close();
    router.close();
    instance.stop();
  }

  private static RequestStreamEvent part(String text, String dataType) {
    return RequestStreamEvent.payloadPartBuilder()
        .bytes(SdkBytes.fromUtf8String(text))
        .dataType(dataType)
        .build();
  }

  private CompletableFuture<Void> stream(
      SimplePublisher<RequestStreamEvent> input, List<ResponsePayloadPart> received) {
    return client.invokeEndpointWithBidirectionalStream(
        r -> r.endpointName("speech-t"),
        input,
        InvokeEndpointWithBidirectionalStreamResponseHandler.builder()
            .subscriber(
                InvokeEndpointWithBidirectionalStreamResponseHandler.Visitor.builder()
                    .onPayloadPart(received::add)
                    .build())
            .build());
  }

  @Test
  void stream_textAndBinary_comeBackWithTheirDataType_andTheInstanceCloseEndsIt() throws Exception {
    List<ResponsePayloadPart> received = new CopyOnWriteArrayList<>();
    SimplePublisher<RequestStreamEvent> input = new SimplePublisher<>();
    CompletableFuture<Void> done = stream(input, received);

    input.send(part("hello", "UTF8"));
    input.send(part("raw-bytes", "BINARY"));
    input.send(part("bye", "UTF8"));
    input.complete();
    done.get(30, TimeUnit.SECONDS);

    assertThat(received)
        .extracting(p -> p.dataType() + "=" + p.bytes().asUtf8String())
        .containsExactly("UTF8=echo:hello", "BINARY=raw-bytes");
    assertThat(backend.inFlight()).isZero();
    assertThat(router.wsSessions()).isZero();
  }

  @Test
  void stream_badEventAfterTheFirst_isAnInputValidationErrorEvent_andReleases() {
    SimplePublisher<RequestStreamEvent> input = new SimplePublisher<>();
    CompletableFuture<Void> done = stream(input, new CopyOnWriteArrayList<>());

    input.send(part("hello", "UTF8"));
    input.send(
        RequestStreamEvent.payloadPartBuilder()
            .bytes(SdkBytes.fromUtf8String("x"))
            .completionState("DONE")
            .build());

    assertThatThrownBy(() -> done.get(30, TimeUnit.SECONDS))
        .isInstanceOf(ExecutionException.class)
        .cause()
        .isExactlyInstanceOf(SageMakerRuntimeHttp2Exception.class)
        .satisfies(e -> {
          AwsErrorDetails details = ((SageMakerRuntimeHttp2Exception) e).awsErrorDetails();
          // the stream's exception unmarshaller knows only ModelStreamError and
          // InternalStreamFailure: any other exception event is the base type with its code
          assertThat(details.errorCode()).isEqualTo("InputValidationError");
          assertThat(details.errorMessage())
              .contains("CompletionState 'DONE'")
              .contains("PARTIAL, COMPLETE");
        });
    input.complete();
    assertThat(backend.inFlight()).isZero();
    assertThat(router.wsSessions()).isZero();
  }

  @Test
  void stream_instanceClosesAbnormally_isTheSdksModelStreamErrorWithTheCloseCode() {
    SimplePublisher<RequestStreamEvent> input = new SimplePublisher<>();
    CompletableFuture<Void> done = stream(input, new CopyOnWriteArrayList<>());

    input.send(part("fail", "UTF8"));

    assertThatThrownBy(() -> done.get(30, TimeUnit.SECONDS))
        .isInstanceOf(ExecutionException.class)
        .cause()
        .isInstanceOfSatisfying(
            ModelStreamErrorException.class,
            e -> {
              assertThat(e.errorCode()).isEqualTo("1011");
              assertThat(e.awsErrorDetails().errorMessage())
                  .contains("i-echo")
                  .contains("engine failed");
            });
    input.complete();
    assertThat(backend.inFlight()).isZero();
  }
}

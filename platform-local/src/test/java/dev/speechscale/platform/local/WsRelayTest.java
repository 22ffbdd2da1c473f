package dev.speechscale.platform.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.net.http.WebSocketHandshakeException;
import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.websocket.server.WebSocketUpgradeHandler;
import org.junit.jupiter.api.Test;

/**
 * The router's WebSocket relay (issue 11): a session counts on its instance exactly while open,
 * whichever way it ends; the router caps relayed sessions; an instance that refuses the session
 * leaves nothing counted.
 */
class WsRelayTest {

  /** A WebSocket instance that echoes text, on 127.0.0.1:0. */
  private static Server echoInstance() throws Exception {
    Server jetty = new Server();
    ServerConnector connector = new ServerConnector(jetty);
    connector.setHost("127.0.0.1");
    connector.setPort(0);
    jetty.addConnector(connector);
    jetty.setHandler(
        WebSocketUpgradeHandler.from(
            jetty,
            container ->
                container.addMapping(Router.BIDI_PATH, (req, resp, cb) -> new EchoWebSocket())));
    jetty.start();
    return jetty;
  }

  private static int port(Server jetty) {
    return ((ServerConnector) jetty.getConnectors()[0]).getLocalPort();
  }

  /** A client that queues what it receives. */
  private static final class Client implements WebSocket.Listener {
    final BlockingQueue<String> received = new LinkedBlockingQueue<>();

    @Override
    public CompletionStage<?> onText(WebSocket ws, CharSequence data, boolean last) {
      received.add(data.toString());
      ws.request(1);
      return null;
    }

    @Override
    public CompletionStage<?> onClose(WebSocket ws, int code, String reason) {
      received.add("closed:" + code);
      return null;
    }
  }

  private static WebSocket connect(HttpClient http, int routerPort, Client client) {
    return http.newWebSocketBuilder()
        .buildAsync(URI.create("ws://127.0.0.1:" + routerPort + Router.BIDI_PATH), client)
        .join();
  }

  @Test
  void session_countsOnItsInstanceExactlyWhileOpen_andAbruptCloseReleases() throws Exception {
    Server instance = echoInstance();
    Backends backends = new Backends();
    Backend b = new Backend("i-ws", "127.0.0.1", port(instance));
    backends.add(b);
    try (Router router = new Router("speech-t", "127.0.0.1", 0, backends, new RequestStats());
        HttpClient http = HttpClient.newHttpClient()) {
      int port = router.start();
      for (int round = 0; round < 20; round++) {
        Client client = new Client();
        WebSocket ws = connect(http, port, client);
        ws.sendText("hi " + round, true).join();
        assertThat(client.received.poll(30, TimeUnit.SECONDS)).isEqualTo("hi " + round);
        assertThat(b.inFlight()).isEqualTo(1);
        assertThat(router.wsSessions()).isEqualTo(1);
        if (round % 2 == 0) {
          ws.abort(); // TCP gone, no close frame
        } else {
          ws.sendClose(WebSocket.NORMAL_CLOSURE, "bye").join();
        }
        LocalEndpoint.await(
            "the session released",
            Duration.ofSeconds(30),
            () -> b.inFlight() == 0 && router.wsSessions() == 0);
      }
    } finally {
      instance.stop();
    }
  }

  @Test
  void upgrade_pastTheSessionCap_isRefusedWith503() throws Exception {
    Server instance = echoInstance();
    Backends backends = new Backends();
    Backend b = new Backend("i-ws", "127.0.0.1", port(instance));
    backends.add(b);
    try (Router router = new Router("speech-t", "127.0.0.1", 0, backends, new RequestStats());
        HttpClient http = HttpClient.newHttpClient()) {
      int port = router.start();
      router.maxWsSessions(1);
      Client client = new Client();
      WebSocket first = connect(http, port, client);
      first.sendText("one", true).join();
      assertThat(client.received.poll(30, TimeUnit.SECONDS)).isEqualTo("one");
      assertThatThrownBy(() -> connect(http, port, new Client()))
          .isInstanceOf(CompletionException.class)
          .cause()
          .isInstanceOf(WebSocketHandshakeException.class)
          .satisfies(e ->
              assertThat(((WebSocketHandshakeException) e).getResponse().statusCode())
                  .isEqualTo(503));
      first.abort();
      LocalEndpoint.await(
          "the session released",
          Duration.ofSeconds(30),
          () -> b.inFlight() == 0 && router.wsSessions() == 0);
    } finally {
      instance.stop();
    }
  }

  @Test
  void session_instanceRefusesTheUpgrade_closesTheClientAndCountsNothing() throws Exception {
    try (FakeInstance notWs = new FakeInstance()) { // answers HTTP 200, never 101
      Backends backends = new Backends();
      Backend b = new Backend("i-http", "127.0.0.1", notWs.port());
      backends.add(b);
      try (Router router = new Router("speech-t", "127.0.0.1", 0, backends, new RequestStats());
          HttpClient http = HttpClient.newHttpClient()) {
        int port = router.start();
        Client client = new Client();
        connect(http, port, client);
        assertThat(client.received.poll(30, TimeUnit.SECONDS)).isEqualTo("closed:1011");
        LocalEndpoint.await(
            "nothing counted",
            Duration.ofSeconds(30),
            () -> b.inFlight() == 0 && router.wsSessions() == 0);
      }
    }
  }
}

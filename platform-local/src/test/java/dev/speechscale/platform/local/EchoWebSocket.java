package dev.speechscale.platform.local;

import org.eclipse.jetty.websocket.api.Callback;
import org.eclipse.jetty.websocket.api.Session;

/** A WebSocket instance for relay tests: echoes each text message. Public for Jetty's lookup. */
public final class EchoWebSocket implements Session.Listener.AutoDemanding {
  private volatile Session session;

  @Override
  public void onWebSocketOpen(Session s) {
    session = s;
  }

  @Override
  public void onWebSocketText(String message) {
    session.sendText(message, Callback.NOOP);
  }
}

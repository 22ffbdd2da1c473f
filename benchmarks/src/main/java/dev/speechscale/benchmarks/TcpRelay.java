package dev.speechscale.benchmarks;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;

/**
 * The baseline of the router-overhead ratio (measurements/open-loop.md): a bare TCP relay on
 * 127.0.0.1 that copies bytes both ways between each client connection and a new connection to
 * {@code target-port}, a platform thread per direction, each read written at once (TCP_NODELAY on
 * both sides). It knows nothing of HTTP: what it adds is the floor of any relay on this path — one
 * more process, two more socket hops and wake-ups.
 *
 * <p>{@code java ... TcpRelay <target-port>} prints {@code listening <port>} and relays until
 * killed.
 */
public final class TcpRelay {
  private TcpRelay() {}

  public static void main(String[] args) throws Exception {
    int target = Integer.parseInt(args[0]);
    try (ServerSocket server = new ServerSocket()) {
      server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 128);
      PrintStream out = System.out;
      out.println("listening " + server.getLocalPort());
      out.flush();
      while (true) {
        Socket client = server.accept();
        Socket upstream = new Socket(InetAddress.getLoopbackAddress(), target);
        client.setTcpNoDelay(true);
        upstream.setTcpNoDelay(true);
        pump(client, upstream);
        pump(upstream, client);
      }
    }
  }

  private static void pump(Socket from, Socket to) {
    Thread.ofPlatform()
        .daemon()
        .start(() -> {
          byte[] buf = new byte[64 * 1024];
          try (InputStream in = from.getInputStream();
              OutputStream out = to.getOutputStream()) {
            int n;
            while ((n = in.read(buf)) >= 0) {
              out.write(buf, 0, n);
            }
          } catch (IOException e) {
            // one side closed: close both
          } finally {
            closeQuietly(from);
            closeQuietly(to);
          }
        });
  }

  private static void closeQuietly(Socket s) {
    try {
      s.close();
    } catch (IOException ignored) {
      // already closed
    }
  }
}

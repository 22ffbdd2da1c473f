package dev.speechscale.loadgen;

import dev.speechscale.platform.NanoClock;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import org.jspecify.annotations.Nullable;

/**
 * The plain socket a raw-socket connection ({@link HttpStreamConnection}, {@link BidiConnection})
 * keeps open across requests: where it goes, how long a request may take, and — while open — the
 * socket, its watchdog guard and its streams. One per connection, used from the worker's thread.
 *
 * <p>{@link #socket} is null until {@link #open} and after {@link #close}; {@link #guard} and
 * {@link #out} are set whenever it is. {@link #in} stays after a close, so that a failure can still
 * ask how much the last socket received.
 */
final class KeptSocket {
  final InetSocketAddress address;
  final String hostHeader;
  final String path;
  final long timeoutNanos;
  final NanoClock clock;
  private final Watchdog watchdog;

  @Nullable Socket socket;
  Watchdog.@Nullable Guard guard;
  @Nullable SocketInput in;
  @Nullable OutputStream out;

  KeptSocket(
      InetSocketAddress address,
      String hostHeader,
      String path,
      long timeoutNanos,
      NanoClock clock,
      Watchdog watchdog) {
    this.address = address;
    this.hostHeader = hostHeader;
    this.path = path;
    this.timeoutNanos = timeoutNanos;
    this.clock = clock;
    this.watchdog = watchdog;
  }

  /**
   * Connects (no delay, keep-alive) within what is left before {@code deadline}; the socket, its
   * streams and its guard are set then, the guard not yet armed. A failed connect leaves it closed.
   */
  void open(long deadline) throws IOException {
    Socket s = new Socket();
    try {
      s.setTcpNoDelay(true);
      s.setKeepAlive(true);
      long remainingMs = Math.max(1, (deadline - clock.nanoTime()) / 1_000_000);
      s.connect(address, (int) Math.min(Integer.MAX_VALUE, remainingMs));
      in = new SocketInput(s, clock);
      out = s.getOutputStream();
      guard = watchdog.guard(s);
      socket = s;
    } catch (IOException e) {
      s.close();
      throw e;
    }
  }

  /** Releases the guard and closes the socket, quietly; a closed one stays closed. */
  void close() {
    Socket s = socket;
    socket = null;
    out = null;
    if (guard != null) {
      guard.release();
      guard = null;
    }
    Endpoints.closeQuietly(s);
  }

  /** What an I/O failure on this socket says, naming where it was talking to. */
  String describe(IOException e) {
    return HttpStreamConnection.describe(e, address);
  }
}

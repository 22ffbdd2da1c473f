package dev.speechscale.platform.local;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The router hands a chunk on as soon as its data is in: Jetty, the container's server, sends the
 * CRLF that closes a chunk only in front of the next chunk, and the router used to wait for it, so
 * every chunk (the first audio included) reached the client one chunk interval late.
 */
class UpstreamChunkedTest {
  private static final String HEAD =
      "HTTP/1.1 200 OK\r\nContent-Type: audio/wav\r\nTransfer-Encoding: chunked\r\n\r\n";

  @Test
  void chunkedBody_chunkWhoseClosingCrlfComesWithTheNext_isReadAtOnce() throws Exception {
    Semaphore firstRead = new Semaphore(0);
    try (ServerSocket listener = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      Thread instance =
          Thread.ofPlatform()
              .start(() -> {
                try (Socket s = listener.accept()) {
                  InputStream in = s.getInputStream();
                  OutputStream out = s.getOutputStream();
                  for (int request = 0; request < 2; request++) {
                    readRequest(in);
                    // as Jetty frames it: size, data; the data's CRLF travels with the next chunk
                    write(out, HEAD + "4\r\nRIFF");
                    firstRead.tryAcquire(30, TimeUnit.SECONDS);
                    write(out, "\r\n3\r\nabc\r\n0\r\n\r\n");
                  }
                } catch (Exception e) {
                  throw new IllegalStateException(e);
                }
              });
      // a read that waited for the CRLF would end in a SocketTimeoutException after 5 s
      UpstreamConnection c =
          new UpstreamConnection("127.0.0.1", listener.getLocalPort(), Duration.ofSeconds(5));
      try {
        for (int request = 0; request < 2; request++) {
          UpstreamConnection.Response r = c.post("/invocations", new byte[] {'{', '}'}, null, null);
          assertThat(r.status()).isEqualTo(200);
          byte[] buf = new byte[64];
          InputStream body = r.body();
          int n = body.read(buf, 0, buf.length);
          assertThat(new String(buf, 0, n, StandardCharsets.US_ASCII)).isEqualTo("RIFF");
          firstRead.release();
          assertThat(new String(body.readAllBytes(), StandardCharsets.US_ASCII)).isEqualTo("abc");
          assertThat(body.read()).isEqualTo(-1);
          assertThat(c.reusable()).as("the framing was read to its end").isTrue();
        }
      } finally {
        c.close();
        instance.join(Duration.ofSeconds(30));
      }
    }
  }

  private static void readRequest(InputStream in) throws Exception {
    // the head up to the empty line, then the two-byte body the test sends
    int matched = 0;
    while (matched < 4) {
      int b = in.read();
      if (b < 0) {
        throw new IllegalStateException("the router's request ended early");
      }
      matched = (b == (matched % 2 == 0 ? '\r' : '\n')) ? matched + 1 : (b == '\r' ? 1 : 0);
    }
    in.readNBytes(2);
  }

  private static void write(OutputStream out, String s) throws Exception {
    out.write(s.getBytes(StandardCharsets.US_ASCII));
    out.flush();
  }
}

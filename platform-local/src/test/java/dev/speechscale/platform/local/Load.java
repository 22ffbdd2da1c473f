package dev.speechscale.platform.local;

import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Closed-loop load for platform tests: N virtual threads, each with one streaming request
 * outstanding against the router, until stopped. Records each response's status (0 = transport
 * failure) and whether its body arrived whole.
 */
final class Load implements AutoCloseable {
  static final String TEXT =
      "The quick brown fox jumps over the lazy dog. A journey of a thousand miles begins with a"
          + " single step. Measured, not guessed: that is the whole idea.";

  /**
   * One request's outcome.
   *
   * @param status HTTP status, 0 when the connection failed
   * @param bytes body bytes received
   * @param complete whether the body ended normally
   * @param instance the instance that served it (router header)
   */
  record Result(int status, long bytes, boolean complete, String instance) {}

  private final AtomicBoolean running = new AtomicBoolean(true);
  private final List<Thread> workers = new ArrayList<>();
  final ConcurrentLinkedQueue<Result> results = new ConcurrentLinkedQueue<>();
  private final HttpClient client =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  Load(String url, int concurrency) {
    HttpRequest request =
        HttpRequest.newBuilder(URI.create(url + "/invocations"))
            .header("Content-Type", "application/json")
            .timeout(Duration.ofSeconds(60))
            .POST(HttpRequest.BodyPublishers.ofString("{\"text\":\"" + TEXT + "\"}"))
            .build();
    for (int i = 0; i < concurrency; i++) {
      workers.add(
          Thread.ofVirtual()
              .start(() -> {
                while (running.get()) {
                  results.add(send(request));
                }
              }));
    }
  }

  private Result send(HttpRequest request) {
    try {
      HttpResponse<InputStream> r = client.send(request, HttpResponse.BodyHandlers.ofInputStream());
      long bytes = 0;
      boolean complete;
      try (InputStream in = r.body()) {
        byte[] buf = new byte[8192];
        int n;
        while ((n = in.read(buf)) >= 0) {
          bytes += n;
        }
        complete = true;
      } catch (java.io.IOException e) {
        complete = false;
      }
      return new Result(
          r.statusCode(),
          bytes,
          complete,
          r.headers().firstValue("X-Speechscale-Instance").orElse(""));
    } catch (java.io.IOException e) {
      return new Result(0, 0, false, "");
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return new Result(0, 0, false, "");
    }
  }

  @Override
  public void close() {
    running.set(false);
    for (Thread t : workers) {
      try {
        t.join(Duration.ofSeconds(70));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    client.close();
  }
}

package dev.speechscale.platform.local;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

/**
 * Hostile clients against a real local endpoint over loopback (issue 11): malformed JSON, huge
 * bodies, hostile text, disconnects mid-stream, bodies abandoned half-sent, garbage request lines
 * and WebSocket abuse through the router, mixed with well-behaved streaming clients whose time to
 * first audio byte is recorded. Seeded: request {@code i} is always the same kind and text. Used by
 * {@code HostileSuiteTest} (bounded) and, through {@link #main}, for the measurement runs in
 * measurements/hardening.md.
 */
final class HostileSuite {
  enum Kind {
    MALFORMED_JSON,
    HUGE_BODY,
    HOSTILE_TEXT,
    DISCONNECT_MID_STREAM,
    BODY_ABANDONED,
    GARBAGE_REQUEST,
    WS_BAD_JSON_THEN_ABORT,
    WS_OVERSIZE,
    WS_OPEN_AND_DROP,
    /**
     * A fresh connection straight to the instance that sends its headers and 4 bytes of a 100-byte
     * body, then nothing: kept open among the last {@link #TRICKLERS_OPEN} such connections, the
     * oldest closed as a new one opens (issue 37: two of these used to hold a two-place gate).
     * Straight to the instance because the router reads a whole body before it forwards one, as
     * SageMaker's front end does; the instance's own gate is what a direct client reaches.
     */
    BODY_TRICKLE,
    /**
     * Not hostile: an ordinary streamed sentence, as the well-behaved clients send. Only in the
     * {@code control} mix, to show what the same number of legitimate clients cost.
     */
    CONTROL_VALID;

    /** The ten hostile kinds: the default mix. */
    static final List<Kind> HOSTILE = List.of(values()).subList(0, 10);

    /** Kinds that never reach the engine: refused, cut off or dropped before synthesis. */
    static final List<Kind> ABUSE =
        List.of(
            MALFORMED_JSON,
            HUGE_BODY,
            BODY_ABANDONED,
            GARBAGE_REQUEST,
            WS_OVERSIZE,
            WS_OPEN_AND_DROP,
            BODY_TRICKLE);

    /** Hostile kinds that start a real synthesis (the engine time they take is real work). */
    static final List<Kind> SYNTHESIS =
        List.of(HOSTILE_TEXT, DISCONNECT_MID_STREAM, WS_BAD_JSON_THEN_ABORT);

    /**
     * A mix by name: all (the nine hostile kinds), abuse, synthesis or control; or kinds by name,
     * comma-separated (e.g. {@code MALFORMED_JSON,GARBAGE_REQUEST}), to take one kind's cost apart.
     */
    static List<Kind> mix(String name) {
      return switch (name) {
        case "all" -> HOSTILE;
        case "abuse" -> ABUSE;
        case "synthesis" -> SYNTHESIS;
        case "control" -> List.of(CONTROL_VALID);
        default -> byNames(name);
      };
    }

    private static List<Kind> byNames(String names) {
      List<Kind> kinds = new java.util.ArrayList<>();
      for (String n : names.split(",")) {
        try {
          kinds.add(Kind.valueOf(n.strip()));
        } catch (IllegalArgumentException e) {
          throw new IllegalArgumentException(
              "mix "
                  + names
                  + ": '"
                  + n
                  + "' is not a kind; expected all, abuse, synthesis, control or kinds from "
                  + List.of(values()),
              e);
        }
      }
      return List.copyOf(kinds);
    }
  }

  /** What one run saw. */
  static final class Tally {
    final Map<Kind, LongAdder> sent = new EnumMap<>(Kind.class);
    final Map<Integer, LongAdder> statuses = new ConcurrentHashMap<>();
    final LongAdder valid = new LongAdder();
    final LongAdder validWithAudio = new LongAdder();
    final List<Long> ttfabMicros = java.util.Collections.synchronizedList(new ArrayList<>());

    /**
     * The instance's own share of each well-behaved first byte: the server's queue wait plus its
     * engine's time to the first chunk ({@code X-Queue-Wait-Us} + {@code X-Engine-First-Chunk-Us}),
     * free of the router's and the client's time on the shared cores.
     */
    final List<Long> serverFirstMicros = java.util.Collections.synchronizedList(new ArrayList<>());

    final LongAdder clientErrors = new LongAdder();

    Tally() {
      for (Kind k : Kind.values()) {
        sent.put(k, new LongAdder());
      }
    }

    long hostile() {
      return sent.values().stream().mapToLong(LongAdder::sum).sum();
    }

    long status(int code) {
      LongAdder n = statuses.get(code);
      return n == null ? 0 : n.sum();
    }

    long p95TtfabMicros() {
      return p95(ttfabMicros);
    }

    long p95ServerFirstMicros() {
      return p95(serverFirstMicros);
    }

    private static long p95(List<Long> micros) {
      long[] all;
      synchronized (micros) {
        all = micros.stream().mapToLong(Long::longValue).toArray();
      }
      if (all.length == 0) {
        return -1;
      }
      Arrays.sort(all);
      return all[(int) Math.ceil(0.95 * all.length) - 1];
    }

    String summary() {
      StringBuilder b = new StringBuilder();
      b.append(String.format(Locale.ROOT, "hostile=%d", hostile()));
      sent.forEach((k, n) -> b.append(' ').append(k).append('=').append(n.sum()));
      b.append(" statuses=").append(new java.util.TreeMap<>(statusMap()));
      b.append(
          String.format(
              Locale.ROOT,
              " valid=%d valid_with_audio=%d p95_ttfab_ms=%.1f p95_server_first_ms=%.1f"
                  + " client_errors=%d",
              valid.sum(),
              validWithAudio.sum(),
              p95TtfabMicros() / 1000.0,
              p95ServerFirstMicros() / 1000.0,
              clientErrors.sum()));
      return b.toString();
    }

    Map<Integer, Long> statusMap() {
      Map<Integer, Long> m = new java.util.HashMap<>();
      statuses.forEach((k, v) -> m.put(k, v.sum()));
      return m;
    }
  }

  private static final String[] SENTENCES = {
    "Hello there.", "The tea is hot.", "Turn left at the next corner.", "It is raining again."
  };

  /**
   * Trickling connections the suite keeps open at once (more than MAX_BODY_READERS' 64, fewer than
   * the 1024 descriptors a test process may have).
   */
  static final int TRICKLERS_OPEN = 96;

  private final int port;
  private final int tricklePort;
  private final java.util.ArrayDeque<Socket> tricklers = new java.util.ArrayDeque<>();
  private final long seed;
  private final List<Kind> kinds;
  private final double hostileRps;
  private final HttpClient ws = HttpClient.newHttpClient();

  HostileSuite(int routerPort, int instancePort, long seed) {
    this(routerPort, instancePort, seed, Kind.HOSTILE);
  }

  HostileSuite(int routerPort, int instancePort, long seed, List<Kind> kinds) {
    this(routerPort, instancePort, seed, kinds, 0);
  }

  /**
   * @param hostileRps hostile requests per second across all hostile threads (0: as fast as they
   *     can, which on a small machine measures the attacker's own CPU use as much as the server)
   */
  HostileSuite(int routerPort, int instancePort, long seed, List<Kind> kinds, double hostileRps) {
    this.port = routerPort;
    this.tricklePort = instancePort;
    this.seed = seed;
    this.kinds = List.copyOf(kinds);
    this.hostileRps = hostileRps;
  }

  /**
   * Runs {@code hostileRequests} hostile requests on {@code hostileClients} threads while {@code
   * validClients} threads send well-behaved streaming requests until the hostile ones are done (or,
   * with {@code hostileRequests} 0, for {@code validOnly} each).
   */
  Tally run(int hostileRequests, int hostileClients, int validClients, int validOnly)
      throws InterruptedException {
    Tally t = new Tally();
    long startNanos = System.nanoTime();
    AtomicInteger next = new AtomicInteger();
    AtomicInteger hostileDone = new AtomicInteger(hostileRequests == 0 ? 1 : 0);
    List<Thread> threads = new ArrayList<>();
    for (int c = 0; c < hostileClients && hostileRequests > 0; c++) {
      threads.add(
          Thread.ofPlatform()
              .start(() -> {
                for (int i; (i = next.getAndIncrement()) < hostileRequests; ) {
                  if (!paceUntil(startNanos, i)) {
                    break;
                  }
                  hostile(i, t);
                }
                hostileDone.incrementAndGet();
              }));
    }
    int hostileThreads = threads.size();
    for (int c = 0; c < validClients; c++) {
      int client = c;
      threads.add(
          Thread.ofPlatform()
              .start(() -> {
                for (int n = 0;
                    hostileRequests > 0 ? hostileDone.get() < hostileThreads : n < validOnly;
                    n++) {
                  valid(client, n, t);
                }
              }));
    }
    for (Thread th : threads) {
      th.join();
    }
    closeTricklers();
    return t;
  }

  /**
   * With a hostile rate, waits until request {@code i}'s slot ({@code i / rate} seconds after the
   * start); false when interrupted. Without one, the hostile threads send as fast as they can.
   */
  private boolean paceUntil(long startNanos, int i) {
    if (hostileRps <= 0) {
      return true;
    }
    long due = startNanos + (long) (i * 1e9 / hostileRps);
    try {
      for (long wait; (wait = due - System.nanoTime()) > 0; ) {
        Thread.sleep(Duration.ofNanos(wait));
      }
      return true;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  private void hostile(int i, Tally t) {
    Random r = new Random(seed * 1_000_003L + i);
    Kind kind = kinds.get(r.nextInt(kinds.size()));
    t.sent.get(kind).increment();
    try {
      switch (kind) {
        case MALFORMED_JSON -> exchange(post(malformed(r)), t, -1);
        case HUGE_BODY ->
            exchange(
                post("{\"text\":\"" + "a".repeat(200_000 + r.nextInt(100_000)) + "\"}"), t, -1);
        case HOSTILE_TEXT ->
            exchange(
                post(
                    "{\"text\":"
                        + json(hostileText(r))
                        + ",\"stream\":"
                        + r.nextBoolean()
                        + ",\"format\":\"pcm\"}"),
                t,
                -1);
        case DISCONNECT_MID_STREAM ->
            exchange(
                post("{\"text\":" + json(String.join(" ", SENTENCES).repeat(4)) + "}"),
                t,
                1 + r.nextInt(2000));
        case BODY_ABANDONED -> abandonBody(r);
        case BODY_TRICKLE -> trickle();
        case GARBAGE_REQUEST -> garbage(r, t);
        case WS_BAD_JSON_THEN_ABORT -> wsBadJsonThenAbort(t);
        case WS_OVERSIZE -> wsOversize();
        case WS_OPEN_AND_DROP -> wsOpen(new Queue()).abort();
        case CONTROL_VALID -> valid(-1, i, new Tally());
      }
    } catch (IOException | RuntimeException e) {
      t.clientErrors.increment(); // the server cut us off: counted, never fatal
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private void valid(int client, int n, Tally t) {
    t.valid.increment();
    String text = SENTENCES[Math.floorMod(client + n, SENTENCES.length)];
    try (Socket s = connect()) {
      long start = System.nanoTime();
      byte[] body =
          ("{\"text\":" + json(text) + ",\"request_id\":\"v" + client + "-" + n + "\"}")
              .getBytes(StandardCharsets.UTF_8);
      OutputStream out = s.getOutputStream();
      out.write(
          ("POST /invocations HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                  + "Content-Length: "
                  + body.length
                  + "\r\n\r\n")
              .getBytes(StandardCharsets.US_ASCII));
      out.write(body);
      out.flush();
      InputStream in = new java.io.BufferedInputStream(s.getInputStream());
      String status = line(in);
      long first = System.nanoTime();
      int code = Integer.parseInt(status.substring(9, 12));
      t.statuses.computeIfAbsent(code, k -> new LongAdder()).increment();
      boolean chunked = false;
      long serverUs = 0;
      int serverParts = 0;
      for (String h = line(in); !h.isEmpty(); h = line(in)) {
        String lower = h.toLowerCase(Locale.ROOT);
        chunked |= lower.startsWith("transfer-encoding:") && h.contains("chunked");
        if (lower.startsWith("x-queue-wait-us:") || lower.startsWith("x-engine-first-chunk-us:")) {
          serverUs += Long.parseLong(h.substring(h.indexOf(':') + 1).strip());
          serverParts++;
        }
      }
      if (code == 200 && chunked && wholeChunkedBody(in) > 100) {
        t.validWithAudio.increment();
        t.ttfabMicros.add((first - start) / 1000);
        if (serverParts == 2) {
          t.serverFirstMicros.add(serverUs);
        }
      }
    } catch (IOException | RuntimeException e) {
      t.clientErrors.increment();
    }
  }

  /** Reads a chunked body to its terminating chunk; its length, or -1 when it was cut. */
  private static long wholeChunkedBody(InputStream in) throws IOException {
    long total = 0;
    while (true) {
      String size = line(in);
      int semi = size.indexOf(';');
      long n = Long.parseLong((semi < 0 ? size : size.substring(0, semi)).strip(), 16);
      if (n == 0) {
        line(in); // the blank line after the last chunk (no trailers)
        return total;
      }
      if (in.readNBytes((int) n).length != n) {
        return -1;
      }
      total += n;
      line(in);
    }
  }

  private Socket connect() throws IOException {
    Socket s = new Socket();
    s.connect(new InetSocketAddress("127.0.0.1", port), 10_000);
    s.setSoTimeout(180_000);
    return s;
  }

  private static byte[] post(String json) {
    byte[] body = json.getBytes(StandardCharsets.UTF_8);
    byte[] head =
        ("POST /invocations HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                + "Content-Length: "
                + body.length
                + "\r\nConnection: close\r\n\r\n")
            .getBytes(StandardCharsets.US_ASCII);
    byte[] all = Arrays.copyOf(head, head.length + body.length);
    System.arraycopy(body, 0, all, head.length, body.length);
    return all;
  }

  /** Sends, reads the status; reads the rest, or only {@code cutAfter} bytes and then resets. */
  private void exchange(byte[] request, Tally t, int cutAfter) throws IOException {
    try (Socket s = connect()) {
      s.getOutputStream().write(request);
      InputStream in = s.getInputStream();
      int code = Integer.parseInt(line(in).substring(9, 12));
      t.statuses.computeIfAbsent(code, k -> new LongAdder()).increment();
      if (cutAfter >= 0) {
        in.readNBytes(cutAfter);
        s.setSoLinger(true, 0);
        return;
      }
      in.readAllBytes();
    }
  }

  /** Opens one more trickling connection; closes the oldest past {@link #TRICKLERS_OPEN}. */
  private void trickle() throws IOException {
    Socket s = new Socket();
    s.connect(new InetSocketAddress("127.0.0.1", tricklePort), 10_000);
    s.getOutputStream()
        .write(
            ("POST /invocations HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                    + "Content-Length: 100\r\n\r\n{\"te")
                .getBytes(StandardCharsets.US_ASCII));
    s.getOutputStream().flush();
    Socket oldest = null;
    synchronized (tricklers) {
      tricklers.addLast(s);
      if (tricklers.size() > TRICKLERS_OPEN) {
        oldest = tricklers.pollFirst();
      }
    }
    if (oldest != null) {
      oldest.close();
    }
  }

  private void closeTricklers() {
    synchronized (tricklers) {
      for (Socket s : tricklers) {
        try {
          s.close();
        } catch (IOException e) {
          throw new java.io.UncheckedIOException(e);
        }
      }
      tricklers.clear();
    }
  }

  private void abandonBody(Random r) throws IOException, InterruptedException {
    try (Socket s = connect()) {
      OutputStream out = s.getOutputStream();
      out.write(
          ("POST /invocations HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                  + "Content-Length: 5000\r\n\r\n{\"text\":\"abandoned")
              .getBytes(StandardCharsets.US_ASCII));
      out.flush();
      Thread.sleep(r.nextInt(50));
      s.setSoLinger(true, 0);
    }
  }

  private void garbage(Random r, Tally t) throws IOException {
    byte[] junk = new byte[1 + r.nextInt(300)];
    r.nextBytes(junk);
    try (Socket s = connect()) {
      OutputStream out = s.getOutputStream();
      out.write(junk);
      out.write("\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
      out.flush();
      s.shutdownOutput();
      String status = line(s.getInputStream());
      if (status.startsWith("HTTP/1.1 ")) {
        t.statuses
            .computeIfAbsent(Integer.parseInt(status.substring(9, 12)), k -> new LongAdder())
            .increment();
      }
    } catch (IOException closedOnUs) {
      // a connection closed without an answer is a fair reply to garbage
    }
  }

  private void wsBadJsonThenAbort(Tally t) throws InterruptedException {
    Queue q = new Queue();
    WebSocket w = wsOpen(q);
    try {
      w.sendText("{not json", true).get(30, TimeUnit.SECONDS);
      String reply = q.text();
      if (reply == null || !reply.contains("invalid_request")) {
        t.clientErrors.increment();
      }
      w.sendText("{\"text\":" + json(String.join(" ", SENTENCES).repeat(4)) + "}", true)
          .get(30, TimeUnit.SECONDS);
      q.text(); // synthesis_start (or an error): then drop mid-stream
    } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
      t.clientErrors.increment();
    } finally {
      w.abort();
    }
  }

  private void wsOversize() throws InterruptedException {
    Queue q = new Queue();
    WebSocket w = wsOpen(q);
    try {
      w.sendText("{\"text\":\"" + "a".repeat(100_000) + "\"}", true).get(30, TimeUnit.SECONDS);
      q.text(); // the close (1009 from the instance, relayed)
    } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
      // closed while sending: what an oversize message earns
    } finally {
      w.abort();
    }
  }

  private WebSocket wsOpen(Queue q) {
    return ws.newWebSocketBuilder()
        .connectTimeout(Duration.ofSeconds(10))
        .buildAsync(URI.create("ws://127.0.0.1:" + port + Router.BIDI_PATH), q)
        .join();
  }

  /** Text messages and the close, queued. */
  private static final class Queue implements WebSocket.Listener {
    private final java.util.concurrent.BlockingQueue<String> texts =
        new java.util.concurrent.LinkedBlockingQueue<>();
    private final StringBuilder part = new StringBuilder();

    @Override
    public CompletionStage<?> onText(WebSocket w, CharSequence data, boolean last) {
      part.append(data);
      if (last) {
        texts.add(part.toString());
        part.setLength(0);
      }
      w.request(1);
      return null;
    }

    @Override
    public CompletionStage<?> onBinary(WebSocket w, ByteBuffer data, boolean last) {
      w.request(1);
      return null;
    }

    @Override
    public CompletionStage<?> onClose(WebSocket w, int code, String reason) {
      texts.add("closed:" + code);
      return CompletableFuture.completedFuture(null);
    }

    String text() throws InterruptedException {
      return texts.poll(30, TimeUnit.SECONDS);
    }
  }

  private static String line(InputStream in) throws IOException {
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    for (int c; (c = in.read()) >= 0; ) {
      if (c == '\n') {
        return b.toString(StandardCharsets.ISO_8859_1).strip();
      }
      b.write(c);
    }
    throw new IOException("closed before a status line: '" + b + "'");
  }

  private static String malformed(Random r) {
    String[] bad = {
      "{not json",
      "{\"text\": \"unterminated",
      "[1,2,3]",
      "\"just a string\"",
      "{\"text\": 42}",
      "{\"text\": \"x\", \"speed\": \"fast\"}",
      "{\"text\": \"x\", \"sample_rate\": -1}",
      "{\"text\": \"\"}",
      "",
      "{\"text\": \"x\", \"voice\": \"../../etc/passwd\"}",
      "{\"text\": \"x\"" + "}".repeat(r.nextInt(50))
    };
    return bad[r.nextInt(bad.length)];
  }

  /** Punctuation runs, long numbers, mixed scripts, control and combining characters. */
  static String hostileText(Random r) {
    StringBuilder t = new StringBuilder();
    switch (r.nextInt(5)) {
      case 0 -> {
        t.append("Word");
        for (int k = 0, n = 1 + r.nextInt(80); k < n; k++) {
          t.append(".,;:!?-…'\"".charAt(r.nextInt(10)));
        }
        t.append("..");
      }
      case 1 -> {
        for (int k = 0, n = 1 + r.nextInt(30); k < n; k++) {
          t.append((char) ('0' + r.nextInt(10)));
          if (r.nextInt(5) == 0) {
            t.append(",.-".charAt(r.nextInt(3)));
          }
        }
      }
      case 2 -> {
        String[] scripts = {"hello", "привет", "你好", "こんにちは", "مرحبا", "שלום", "नमस्ते", "😀"};
        for (int k = 0, n = 1 + r.nextInt(10); k < n; k++) {
          t.append(scripts[r.nextInt(scripts.length)]).append(r.nextBoolean() ? " " : "");
        }
      }
      case 3 -> {
        for (int k = 0, n = 1 + r.nextInt(100); k < n; k++) {
          t.append(r.nextBoolean() ? (char) r.nextInt(0x20) : 'a');
        }
      }
      default -> {
        for (int k = 0, n = 1 + r.nextInt(10); k < n; k++) {
          t.append((char) ('a' + r.nextInt(26)));
          for (int m = 0, c = r.nextInt(30); m < c; m++) {
            t.append((char) (0x0300 + r.nextInt(0x70)));
          }
        }
      }
    }
    return t.toString();
  }

  /** A JSON string literal; control characters escaped. */
  static String json(String s) {
    StringBuilder b = new StringBuilder("\"");
    for (char c : s.toCharArray()) {
      switch (c) {
        case '"' -> b.append("\\\"");
        case '\\' -> b.append("\\\\");
        default -> {
          if (c < 0x20) {
            b.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
          } else {
            b.append(c);
          }
        }
      }
    }
    return b.append('"').toString();
  }

  /**
   * One process's open descriptors, threads, resident memory and CPU time so far (user + system,
   * from /proc/PID/stat at the kernel's 100 ticks a second), from /proc.
   */
  record ProcessFigures(long pid, long fds, long threads, long rssKb, double cpuSeconds) {
    static ProcessFigures of(long pid) {
      try {
        long fds;
        try (var list = Files.list(Path.of("/proc", Long.toString(pid), "fd"))) {
          fds = list.count();
        }
        long threads = 0;
        long rss = 0;
        for (String l : Files.readAllLines(Path.of("/proc", Long.toString(pid), "status"))) {
          if (l.startsWith("Threads:")) {
            threads = Long.parseLong(l.substring(8).strip());
          } else if (l.startsWith("VmRSS:")) {
            rss = Long.parseLong(l.substring(6).replace("kB", "").strip());
          }
        }
        String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
        String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        double cpu = (Long.parseLong(f[11]) + Long.parseLong(f[12])) / 100.0; // utime, stime
        return new ProcessFigures(pid, fds, threads, rss, cpu);
      } catch (IOException e) {
        throw new java.io.UncheckedIOException(e);
      }
    }

    @Override
    public String toString() {
      return String.format(
          Locale.ROOT,
          "pid %d: %d fds, %d threads, %d kB RSS, %.2f CPU s",
          pid,
          fds,
          threads,
          rssKb,
          cpuSeconds);
    }
  }

  /** The endpoint's processes and its one instance's port, from the supervisor's status. */
  record Endpoint(long supervisorPid, long instancePid, int instancePort) {
    static Endpoint of(LocalEndpoint e) {
      Views.Status s = new ControlClient(e.root).get(e.endpoint(), "/status", Views.Status.class);
      LocalState.InstanceRecord i =
          s.instances().stream()
              .filter(r -> r.phase().equals("in_service"))
              .findFirst()
              .orElseThrow();
      return new Endpoint(s.supervisorPid(), i.pid(), i.port());
    }

    /** The instance's /stats as text. */
    String stats() throws IOException, InterruptedException {
      try (HttpClient http = HttpClient.newHttpClient()) {
        return http.send(
                java.net.http.HttpRequest.newBuilder(
                        URI.create("http://127.0.0.1:" + instancePort + "/stats"))
                    .build(),
                java.net.http.HttpResponse.BodyHandlers.ofString())
            .body();
      }
    }

    /** Waits (bounded) until the instance holds nothing: no request in flight, no session. */
    String awaitQuiet(Duration bound) throws IOException, InterruptedException {
      long until = System.nanoTime() + bound.toNanos();
      String last = stats();
      while (!(last.contains("\"in_flight\":0,") && last.contains("\"ws_sessions\":0"))) {
        if (System.nanoTime() > until) {
          throw new AssertionError("the instance did not empty within " + bound + ": " + last);
        }
        Thread.sleep(200);
        last = stats();
      }
      return last;
    }
  }

  static final String YAML =
      """
      models:
        hostile:
          engine: flite
          instance_type: local.1cpu
          min_instances: 1
          max_instances: 1
          queue_max_depth: 16
          container_env: {SEGMENTATION: sentence}
      """;

  /**
   * Pins the supervisor (all its threads, the router's included) and this JVM to the CPUs the
   * instance's affinity mask leaves out, and prints both masks.
   */
  private static void isolate(Endpoint ep) throws IOException, InterruptedException {
    String instance = cpusAllowed(ep.instancePid());
    java.util.BitSet others = new java.util.BitSet();
    others.set(0, Runtime.getRuntime().availableProcessors());
    for (String part : instance.split(",")) {
      String[] range = part.strip().split("-");
      int from = Integer.parseInt(range[0]);
      others.clear(from, Integer.parseInt(range[range.length - 1]) + 1);
    }
    if (others.isEmpty()) {
      throw new IllegalStateException(
          "the instance may run on every CPU (" + instance + "): nothing to isolate it from");
    }
    String rest = others.stream().mapToObj(Integer::toString).reduce((a, b) -> a + "," + b).get();
    for (long pid : new long[] {ep.supervisorPid(), ProcessHandle.current().pid()}) {
      Process p =
          new ProcessBuilder("taskset", "-a", "-p", "-c", rest, Long.toString(pid))
              .redirectErrorStream(true)
              .start();
      p.getInputStream().transferTo(java.io.OutputStream.nullOutputStream());
      if (p.waitFor() != 0) {
        throw new IllegalStateException("taskset -a -p -c " + rest + " " + pid + " failed");
      }
    }
    System.out.println(
        "ISOLATED instance on CPUs "
            + instance
            + "; supervisor, router and this client on CPUs "
            + cpusAllowed(ep.supervisorPid()));
  }

  private static String cpusAllowed(long pid) throws IOException {
    for (String line : Files.readAllLines(Path.of("/proc/" + pid + "/status"))) {
      if (line.startsWith("Cpus_allowed_list:")) {
        return line.substring(line.indexOf(':') + 1).strip();
      }
    }
    throw new IllegalStateException("/proc/" + pid + "/status has no Cpus_allowed_list");
  }

  /**
   * The measurement run: {@code HostileSuite HOSTILE_REQUESTS SOAK_MINUTES [MIX [HOSTILE_RPS]]}
   * (HOSTILE_RPS paces the hostile requests; 0 or absent: unpaced), MIX one of {@code all}
   * (default: the nine hostile kinds), {@code abuse} (the kinds that never reach the engine),
   * {@code synthesis} (the hostile kinds that start a real synthesis) or {@code control} (ordinary
   * streamed sentences on the hostile threads: what as many legitimate clients cost). Deploys a
   * flite endpoint in a temporary directory, measures a quiet baseline of the well-behaved clients,
   * runs the hostile requests, waits for the instance to empty, prints every figure, then soaks for
   * the given minutes in batches of 1000 hostile requests, printing each batch, and destroys the
   * endpoint. A negative SOAK_MINUTES skips the settle wait and the soak (a comparison run). A
   * fifth argument {@code isolate} moves the supervisor (with its router) and this client off the
   * instance's CPUs once it is deployed, as on SageMaker, where neither runs on the instance's
   * host.
   */
  public static void main(String[] args) throws Exception {
    int hostile = Integer.parseInt(args[0]);
    int soakMinutes = Integer.parseInt(args[1]);
    List<Kind> mix = Kind.mix(args.length > 2 ? args[2] : "all");
    double rps = args.length > 3 ? Double.parseDouble(args[3]) : 0;
    boolean isolate = args.length > 4 && args[4].equals("isolate");
    System.out.println("MIX " + mix + (rps > 0 ? " at " + rps + " hostile req/s" : " unpaced"));
    Path dir = Files.createTempDirectory("hostile-suite");
    try {
      measure(dir, hostile, soakMinutes, mix, rps, isolate);
    } finally {
      try (var paths = Files.walk(dir)) { // the endpoint is destroyed; its state goes too
        paths.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
      }
    }
  }

  private static void measure(
      Path dir, int hostile, int soakMinutes, List<Kind> mix, double rps, boolean isolate)
      throws Exception {
    try (LocalEndpoint e = LocalEndpoint.deploy(dir, "hostile", YAML, false)) {
      Endpoint ep = Endpoint.of(e);
      if (isolate) {
        isolate(ep);
      }
      int routerPort = URI.create(e.url()).getPort();
      HostileSuite suite = new HostileSuite(routerPort, ep.instancePort(), 20261201L);
      suite.run(0, 0, 2, 10); // warm-up
      Tally quiet = suite.run(0, 0, 2, 100);
      System.out.println("QUIET " + quiet.summary());
      System.out.println("BEFORE instance " + ProcessFigures.of(ep.instancePid()));
      System.out.println("BEFORE supervisor " + ProcessFigures.of(ep.supervisorPid()));
      ProcessFigures instanceBefore = ProcessFigures.of(ep.instancePid());
      ProcessFigures supervisorBefore = ProcessFigures.of(ep.supervisorPid());
      ProcessFigures clientBefore = ProcessFigures.of(ProcessHandle.current().pid());
      long started = System.nanoTime();
      Tally t =
          new HostileSuite(routerPort, ep.instancePort(), 20261201L, mix, rps)
              .run(hostile, 6, 2, 0);
      System.out.printf(
          Locale.ROOT, "HOSTILE %.1f s: %s%n", (System.nanoTime() - started) / 1e9, t.summary());
      System.out.printf(
          Locale.ROOT,
          "CPU during the hostile phase: instance %.1f s, supervisor and router %.1f s, this client"
              + " %.1f s%n",
          ProcessFigures.of(ep.instancePid()).cpuSeconds() - instanceBefore.cpuSeconds(),
          ProcessFigures.of(ep.supervisorPid()).cpuSeconds() - supervisorBefore.cpuSeconds(),
          ProcessFigures.of(ProcessHandle.current().pid()).cpuSeconds()
              - clientBefore.cpuSeconds());
      System.out.println("STATS " + ep.awaitQuiet(Duration.ofMinutes(3)));
      System.out.println("AFTER instance " + ProcessFigures.of(ep.instancePid()));
      System.out.println("AFTER supervisor " + ProcessFigures.of(ep.supervisorPid()));
      if (soakMinutes < 0) {
        return; // a comparison run: no settle wait, no soak
      }
      Thread.sleep(Duration.ofSeconds(95)); // past every idle timeout (60 s instance, 90 s pool)
      System.out.println("SETTLED instance " + ProcessFigures.of(ep.instancePid()));
      System.out.println("SETTLED supervisor " + ProcessFigures.of(ep.supervisorPid()));
      long soakUntil = System.nanoTime() + Duration.ofMinutes(soakMinutes).toNanos();
      for (int batch = 0; System.nanoTime() < soakUntil; batch++) {
        HostileSuite soak =
            new HostileSuite(routerPort, ep.instancePort(), 20261202L + batch, mix, rps);
        Tally b = soak.run(1000, 6, 2, 0);
        System.out.printf(
            Locale.ROOT,
            "SOAK %d t=%.0f s: %s | instance %s%n",
            batch,
            (System.nanoTime() - started) / 1e9,
            b.summary(),
            ProcessFigures.of(ep.instancePid()));
      }
      if (soakMinutes > 0) {
        System.out.println("SOAK STATS " + ep.awaitQuiet(Duration.ofMinutes(3)));
        Thread.sleep(Duration.ofSeconds(95));
        System.out.println("SOAK SETTLED instance " + ProcessFigures.of(ep.instancePid()));
        System.out.println("SOAK SETTLED supervisor " + ProcessFigures.of(ep.supervisorPid()));
      }
    }
  }
}

package dev.speechscale.platform.aws;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URLDecoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.regions.Region;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * A local HTTP fake of the five AWS services the provider calls, on 127.0.0.1, speaking their wire
 * protocols as SDK 2.40.2 sends them: SageMaker, Application Auto Scaling and CloudWatch Logs in
 * AWS JSON 1.1 ({@code X-Amz-Target}, {@code application/x-amz-json-1.1}, errors as {@code
 * __type}); CloudWatch in the AWS Query protocol (form-encoded {@code Action=...}, XML answers,
 * {@code <ErrorResponse>} errors; the 2.40.2 client still uses it); SageMaker Runtime's {@code
 * InvokeEndpointWithResponseStream} in REST-JSON with an event-stream body. The services' state is
 * {@link WireServices}; invocations go to the endpoint's real speech-server instances.
 *
 * <p>Every request is checked for a SigV4 {@code Authorization} header scoped to this fake's key,
 * region and the addressed service's signing name, and counted ({@link #served()}). Tests inject
 * throttling and other errors per operation ({@link #fail}), deny IAM actions ({@link #deny}), and
 * read back what the SDK sent.
 *
 * <p>Over the house size because it is three protocols' framing (JSON 1.1, Query, event-stream) and
 * their error shapes, which are only worth reading side by side.
 */
final class WireAws implements AutoCloseable {
  static final String REGION = "us-east-1";
  static final String ACCOUNT = "123456789012";
  static final String ACCESS_KEY = "AKIAWIREFAKE0000TEST";
  private static final String SECRET = "wire-fake-secret-key";

  /**
   * The placeholder key {@link ResponseStreamInvoker} signs with for a loopback runtime; the
   * runtime accepts it, as the local stand-ins it is meant for do.
   */
  static final String LOOPBACK_KEY = "local";

  /**
   * One request the fake answered.
   *
   * @param attempt the SDK's attempt number from its {@code amz-sdk-request: attempt=N; max=M}
   *     header: 1 for a first try, 2 and up for the SDK's own retries (0 when absent)
   */
  record Served(String service, String operation, int status, String errorCode, int attempt) {}

  private static final Pattern ATTEMPT = Pattern.compile("attempt=(\\d+)");

  /** An error answer: HTTP status, AWS error code, message. */
  record Fault(int status, String code, String message) {}

  /** An error the services raise; answered in the protocol of the service that raised it. */
  static final class WireError extends RuntimeException {
    private static final long serialVersionUID = 1L;
    final transient Fault fault;

    WireError(int status, String code, String message) {
      super(code + ": " + message);
      this.fault = new Fault(status, code, message);
    }
  }

  /** A service as the fake addresses it: how it is signed, named in IAM and in errors. */
  private record Service(String name, String signingName, String iamPrefix, boolean query) {}

  private static final Map<String, Service> BY_TARGET_PREFIX =
      Map.of(
          "SageMaker", new Service("SageMaker", "sagemaker", "sagemaker", false),
          "AnyScaleFrontendService",
              new Service(
                  "ApplicationAutoScaling",
                  "application-autoscaling",
                  "application-autoscaling",
                  false),
          "Logs_20140328", new Service("CloudWatchLogs", "logs", "logs", false));
  private static final Service CLOUDWATCH =
      new Service("CloudWatch", "monitoring", "cloudwatch", true);
  private static final Service RUNTIME =
      new Service("SageMakerRuntime", "sagemaker", "sagemaker", false);

  private static final Pattern CREDENTIAL =
      Pattern.compile("Credential=([^/]+)/\\d{8}/([^/]+)/([^/]+)/aws4_request");

  private final HttpServer server;
  private final ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor();
  private final HttpClient upstream =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
  private final JsonMapper json = JsonMapper.builder().build();
  private final List<Served> served = new CopyOnWriteArrayList<>();
  private final Map<String, Deque<Fault>> faults = new ConcurrentHashMap<>();
  private final Set<String> denied = ConcurrentHashMap.newKeySet();
  private final Map<String, String> lastBodies = new ConcurrentHashMap<>();
  private final Map<String, String> lastSdkHeaders = new ConcurrentHashMap<>();
  private final WireServices services;

  /**
   * A fake AWS on the system clock with {@link AwsFixtures#wireConfig()}'s endpoint deployed and in
   * service at one instance: the starting point of the wire tests.
   */
  static WireAws withTheWireEndpointInService() throws IOException {
    WireAws aws = new WireAws(Clock.systemUTC());
    aws.services().deploy(AwsEndpointSpec.of(AwsFixtures.wireConfig()), 37.5, 25.0, 30, 960);
    aws.services().awaitInService(AwsFixtures.WIRE_ENDPOINT, 1, Duration.ofSeconds(90));
    return aws;
  }

  WireAws(Clock clock) throws IOException {
    this.services = new WireServices(clock, json);
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext("/", this::handle);
    server.setExecutor(executor);
    server.start();
  }

  URI uri() {
    return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
  }

  WireServices services() {
    return services;
  }

  /** The four control-plane clients, built by the production code, sent here. */
  AwsApis.Clients clients() {
    return clients(ACCESS_KEY);
  }

  /** The same clients signing with another access key (one this fake does not know). */
  AwsApis.Clients clients(String accessKey) {
    return AwsApis.sdk(
        Region.of(REGION),
        StaticCredentialsProvider.create(AwsBasicCredentials.create(accessKey, SECRET)),
        uri());
  }

  /** The next {@code times} requests for {@code operation} get {@code fault}. */
  void fail(String operation, int times, Fault fault) {
    Deque<Fault> queue = faults.computeIfAbsent(operation, k -> new ArrayDeque<>());
    synchronized (queue) {
      for (int i = 0; i < times; i++) {
        queue.add(fault);
      }
    }
  }

  /** The next {@code times} requests for {@code operation} are throttled as that service does. */
  void throttle(String operation, int times) {
    boolean query = Set.of("DescribeAlarms", "GetMetricData").contains(operation);
    fail(
        operation,
        times,
        query
            ? new Fault(400, "Throttling", "Rate exceeded")
            : new Fault(400, "ThrottlingException", "Rate exceeded"));
  }

  /** Requests for this IAM action ({@code sagemaker:DescribeEndpoint}) are denied. */
  void deny(String action) {
    denied.add(action);
  }

  /** Drops every pending fault and denial. */
  void clearFaults() {
    faults.clear();
    denied.clear();
  }

  /** Every request answered, in order. */
  List<Served> served() {
    return List.copyOf(served);
  }

  /** The body of the last request for {@code operation}, as the SDK marshalled it. */
  String lastBody(String operation) {
    return lastBodies.get(operation);
  }

  /** Requests answered for one operation. */
  long served(String operation) {
    return served.stream().filter(s -> s.operation().equals(operation)).count();
  }

  private void handle(HttpExchange x) throws IOException {
    try (x) {
      byte[] body = x.getRequestBody().readAllBytes();
      String path = x.getRequestURI().getPath();
      String target = x.getRequestHeaders().getFirst("X-Amz-Target");
      if (path.startsWith("/endpoints/")) {
        runtime(x, path, body);
      } else if (target != null) {
        jsonRequest(x, target, body);
      } else {
        queryRequest(x, body);
      }
    }
  }

  private void jsonRequest(HttpExchange x, String target, byte[] body) throws IOException {
    String prefix = target.substring(0, Math.max(0, target.indexOf('.')));
    String operation = target.substring(target.indexOf('.') + 1);
    Service service = BY_TARGET_PREFIX.get(prefix);
    if (service == null) {
      answerJsonError(x, null, operation, new Fault(400, "UnknownOperationException", target));
      return;
    }
    lastBodies.put(operation, new String(body, StandardCharsets.UTF_8));
    recordHeader(x, operation);
    try {
      admit(x, service, operation);
      JsonNode in = json.readTree(body.length == 0 ? "{}".getBytes(StandardCharsets.UTF_8) : body);
      Object out = services.json(service.name(), operation, in);
      byte[] bytes = json.writeValueAsBytes(out);
      x.getResponseHeaders().set("Content-Type", "application/x-amz-json-1.1");
      x.getResponseHeaders().set("x-amzn-RequestId", UUID.randomUUID().toString());
      x.sendResponseHeaders(200, bytes.length);
      x.getResponseBody().write(bytes);
      served.add(new Served(service.name(), operation, 200, null, attempt(x)));
    } catch (WireError e) {
      answerJsonError(x, service, operation, e.fault);
    }
  }

  private void answerJsonError(HttpExchange x, Service service, String operation, Fault f)
      throws IOException {
    var node = json.createObjectNode();
    node.put("__type", f.code());
    node.put("message", f.message());
    byte[] bytes = json.writeValueAsBytes(node);
    x.getResponseHeaders().set("Content-Type", "application/x-amz-json-1.1");
    x.getResponseHeaders().set("x-amzn-RequestId", UUID.randomUUID().toString());
    x.getResponseHeaders().set("x-amzn-ErrorType", f.code());
    x.sendResponseHeaders(f.status(), bytes.length);
    x.getResponseBody().write(bytes);
    served.add(
        new Served(
            service == null ? "?" : service.name(), operation, f.status(), f.code(), attempt(x)));
  }

  private void queryRequest(HttpExchange x, byte[] body) throws IOException {
    Map<String, String> form = form(new String(body, StandardCharsets.UTF_8));
    String operation = form.getOrDefault("Action", "?");
    lastBodies.put(operation, new String(body, StandardCharsets.UTF_8));
    recordHeader(x, operation);
    try {
      if (!"2010-08-01".equals(form.get("Version"))) {
        throw new WireError(400, "InvalidAction", "no Version=2010-08-01 in the query");
      }
      admit(x, CLOUDWATCH, operation);
      String result = services.query(operation, form);
      String xml =
          "<"
              + operation
              + "Response xmlns=\"http://monitoring.amazonaws.com/doc/2010-08-01/\"><"
              + operation
              + "Result>"
              + result
              + "</"
              + operation
              + "Result><ResponseMetadata><RequestId>"
              + UUID.randomUUID()
              + "</RequestId></ResponseMetadata></"
              + operation
              + "Response>";
      byte[] bytes = xml.getBytes(StandardCharsets.UTF_8);
      x.getResponseHeaders().set("Content-Type", "text/xml");
      x.sendResponseHeaders(200, bytes.length);
      x.getResponseBody().write(bytes);
      served.add(new Served(CLOUDWATCH.name(), operation, 200, null, attempt(x)));
    } catch (WireError e) {
      Fault f = e.fault;
      String xml =
          "<ErrorResponse xmlns=\"http://monitoring.amazonaws.com/doc/2010-08-01/\"><Error>"
              + "<Type>Sender</Type><Code>"
              + f.code()
              + "</Code><Message>"
              + WireServices.xml(f.message())
              + "</Message></Error><RequestId>"
              + UUID.randomUUID()
              + "</RequestId></ErrorResponse>";
      byte[] bytes = xml.getBytes(StandardCharsets.UTF_8);
      x.getResponseHeaders().set("Content-Type", "text/xml");
      x.sendResponseHeaders(f.status(), bytes.length);
      x.getResponseBody().write(bytes);
      served.add(new Served(CLOUDWATCH.name(), operation, f.status(), f.code(), attempt(x)));
    }
  }

  /** Signature scope, IAM denials and injected faults, in that order. */
  private void admit(HttpExchange x, Service service, String operation) {
    String auth = x.getRequestHeaders().getFirst("Authorization");
    Matcher m = auth == null ? null : CREDENTIAL.matcher(auth);
    if (m == null || !m.find() || !auth.startsWith("AWS4-HMAC-SHA256 ")) {
      throw new WireError(
          service.query() ? 403 : 400,
          "MissingAuthenticationToken",
          "Request is missing Authentication Token");
    }
    boolean placeholder = service == RUNTIME && m.group(1).equals(LOOPBACK_KEY);
    if (!m.group(1).equals(ACCESS_KEY) && !placeholder) {
      throw service.query()
          ? new WireError(
              403, "InvalidClientTokenId", "The security token included in the request is invalid.")
          : new WireError(
              400,
              "UnrecognizedClientException",
              "The security token included in the request is invalid.");
    }
    if (!m.group(2).equals(REGION) || !m.group(3).equals(service.signingName())) {
      throw new WireError(
          service.query() ? 403 : 400,
          service.query() ? "SignatureDoesNotMatch" : "InvalidSignatureException",
          "Credential should be scoped to a valid region and to the service '"
              + service.signingName()
              + "', not '"
              + m.group(2)
              + "/"
              + m.group(3)
              + "'.");
    }
    String action = service.iamPrefix() + ":" + operation;
    if (denied.contains(action)) {
      throw new WireError(
          service.query() ? 403 : 400,
          service.query() ? "AccessDenied" : "AccessDeniedException",
          "User: arn:aws:iam::"
              + ACCOUNT
              + ":user/speechscale-test is not authorized to perform: "
              + action
              + " because no identity-based policy allows the "
              + action
              + " action");
    }
    Deque<Fault> queue = faults.get(operation);
    if (queue != null) {
      synchronized (queue) {
        Fault f = queue.poll();
        if (f != null) {
          throw new WireError(f.status(), f.code(), f.message());
        }
      }
    }
  }

  /**
   * InvokeEndpointWithResponseStream: the body goes to one of the endpoint's in-service instances'
   * {@code POST /invocations}, and what the container streams back comes out as event-stream {@code
   * PayloadPart} messages, one per read. A container error before the 200 becomes SageMaker's
   * {@code ModelError} (424) carrying the container's status and body; a container stream that
   * breaks after the 200 ends with a {@code ModelStreamError} message.
   */
  private void runtime(HttpExchange x, String path, byte[] body) throws IOException {
    String operation = "InvokeEndpointWithResponseStream";
    String[] parts = path.split("/");
    try {
      if (parts.length != 4 || !parts[3].equals("invocations-response-stream")) {
        throw new WireError(404, "UnknownOperationException", "no operation at " + path);
      }
      lastBodies.put(operation, new String(body, StandardCharsets.UTF_8));
      admit(x, RUNTIME, operation);
      String endpoint = URLDecoder.decode(parts[2], StandardCharsets.UTF_8);
      try (WireServices.Invocation call = services.startInvocation(endpoint)) {
        int status = proxy(x, call, body);
        served.add(
            new Served(
                RUNTIME.name(),
                operation,
                status,
                status == 200 ? null : "ModelError",
                attempt(x)));
      }
    } catch (WireError e) {
      answerJsonError(x, RUNTIME, operation, e.fault);
    }
  }

  /** Streams one invocation through; the status the SDK saw. */
  private int proxy(HttpExchange x, WireServices.Invocation call, byte[] body) throws IOException {
    String contentType = x.getRequestHeaders().getFirst("Content-Type");
    HttpRequest request =
        HttpRequest.newBuilder(call.instance().resolve("/invocations"))
            .header("Content-Type", contentType == null ? "application/json" : contentType)
            .POST(HttpRequest.BodyPublishers.ofByteArray(body))
            .build();
    HttpResponse<InputStream> response;
    try {
      response = upstream.send(request, HttpResponse.BodyHandlers.ofInputStream());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new WireError(500, "InternalFailure", "interrupted");
    }
    try (InputStream in = response.body()) {
      if (response.statusCode() != 200) {
        String text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        call.failed(response.statusCode());
        var node = json.createObjectNode();
        node.put("__type", "ModelError");
        node.put(
            "Message",
            "Received "
                + (response.statusCode() < 500 ? "client" : "server")
                + " error ("
                + response.statusCode()
                + ") from primary with message \""
                + text
                + "\".");
        node.put("OriginalStatusCode", response.statusCode());
        node.put("OriginalMessage", text);
        node.put(
            "LogStreamArn",
            "arn:aws:logs:"
                + REGION
                + ":"
                + ACCOUNT
                + ":log-group:"
                + AwsNames.logGroup(call.endpoint()));
        byte[] bytes = json.writeValueAsBytes(node);
        x.getResponseHeaders().set("Content-Type", "application/json");
        x.getResponseHeaders().set("x-amzn-ErrorType", "ModelError");
        x.getResponseHeaders().set("x-amzn-RequestId", UUID.randomUUID().toString());
        x.sendResponseHeaders(424, bytes.length);
        x.getResponseBody().write(bytes);
        return 424;
      }
      x.getResponseHeaders().set("Content-Type", "application/vnd.amazon.eventstream");
      x.getResponseHeaders()
          .set(
              "X-Amzn-SageMaker-Content-Type",
              response.headers().firstValue("Content-Type").orElse("audio/wav"));
      x.getResponseHeaders().set("x-Amzn-Invoked-Production-Variant", call.variant());
      x.getResponseHeaders().set("x-amzn-RequestId", UUID.randomUUID().toString());
      x.sendResponseHeaders(200, 0);
      OutputStream out = x.getResponseBody();
      byte[] buffer = new byte[16 * 1024];
      try {
        int n;
        while ((n = in.read(buffer)) > 0) {
          call.chunk();
          out.write(EventStreamEncoder.payloadPart(Arrays.copyOf(buffer, n)));
          out.flush();
        }
      } catch (IOException e) {
        call.failed(500);
        out.write(
            EventStreamEncoder.modelStreamError(
                "ModelStreamError", "the container's stream broke: " + e.getMessage()));
      }
      return 200;
    }
  }

  private void recordHeader(HttpExchange x, String operation) {
    String header = x.getRequestHeaders().getFirst("amz-sdk-request");
    if (header != null) {
      lastSdkHeaders.put(operation, header);
    }
  }

  /** The attempt number the SDK stamped on the request; 0 when it sent none. */
  static int attempt(HttpExchange x) {
    String header = x.getRequestHeaders().getFirst("amz-sdk-request");
    Matcher m = header == null ? null : ATTEMPT.matcher(header);
    return m != null && m.find() ? Integer.parseInt(m.group(1)) : 0;
  }

  /** The {@code amz-sdk-request} header of the last request for {@code operation}. */
  String lastSdkRequestHeader(String operation) {
    return lastSdkHeaders.get(operation);
  }

  /** {@code a=1&b=x%20y} as a map, in order. */
  static Map<String, String> form(String body) {
    Map<String, String> out = new LinkedHashMap<>();
    for (String pair : body.split("&")) {
      if (pair.isEmpty()) {
        continue;
      }
      int eq = pair.indexOf('=');
      String k = eq < 0 ? pair : pair.substring(0, eq);
      String v = eq < 0 ? "" : pair.substring(eq + 1);
      out.put(
          URLDecoder.decode(k, StandardCharsets.UTF_8),
          URLDecoder.decode(v, StandardCharsets.UTF_8));
    }
    return out;
  }

  @Override
  public void close() {
    services.close();
    server.stop(0);
    executor.close();
    upstream.close();
  }
}

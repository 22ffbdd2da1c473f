package dev.speechscale.platform.local;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.speechscale.platform.Platform;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;

/**
 * An AWS-shaped control plane for local endpoints on 127.0.0.1: the subset of SageMaker,
 * Application Auto Scaling, CloudWatch and CloudWatch Logs that the AWS adapter ({@code --platform
 * aws}) calls, so that the unmodified adapter and the real AWS SDK drive a local endpoint with
 * {@code --endpoint-url}. Everything it answers is the live endpoint's, read and changed through
 * the local {@link Platform} (the supervisor's control API and the state directory): instance
 * counts, the autoscaler's target, policies, alarms and suspended flags, the metric store, the
 * instances' logs.
 *
 * <p>Wire protocols, as SDK 2.40.2 sends them (AWS's protocol reference:
 * https://smithy.io/2.0/aws/protocols/aws-json-1_1-protocol.html and
 * https://smithy.io/2.0/aws/protocols/aws-query-protocol.html):
 *
 * <ul>
 *   <li>AWS JSON 1.1 — {@code POST /}, {@code X-Amz-Target: <prefix>.<Operation>}, {@code
 *       application/x-amz-json-1.1}; errors as {@code {"__type": code, "message": ...}} with {@code
 *       x-amzn-ErrorType}. Prefixes: {@code SageMaker} ({@link AwsSageMakerOperations}), {@code
 *       AnyScaleFrontendService} ({@link AwsAutoScalingOperations}), {@code Logs_20140328} ({@link
 *       AwsLogsOperations}), {@code AmazonEC2ContainerRegistry_V20150921} ({@link
 *       AwsEcrOperations}: ECR's registry token, for {@code bin/image push}).
 *   <li>AWS Query — {@code POST /} with a form body {@code Action=...&Version=2010-08-01}, XML
 *       answers {@code <ActionResponse><ActionResult>...}, errors as {@code <ErrorResponse>}:
 *       CloudWatch ({@link AwsCloudWatchOperations}).
 * </ul>
 *
 * <p>Authentication: every request must carry a SigV4 {@code Authorization} header
 * (https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_sigv-create-signed-request.html)
 * whose credential scope names this plane's region and the addressed service's signing name ({@code
 * sagemaker}, {@code application-autoscaling}, {@code monitoring}, {@code logs}, {@code ecr}). A
 * wrong scope is refused as AWS refuses it (JSON: 400 {@code InvalidSignatureException}; Query: 403
 * {@code SignatureDoesNotMatch}); a missing header with {@code MissingAuthenticationToken}. The
 * signature itself is not verified: the local platform has no IAM and no secret to check it
 * against; the scope check catches a client pointed at the wrong region or service.
 *
 * <p>What the local platform does not have, it refuses by name rather than inventing: other
 * namespaces, metrics outside {@code AWS/SageMaker}, changing a target's min/max.
 */
public final class AwsControlPlane implements AutoCloseable {
  /** Control calls are short; a few platform threads answer them. */
  private static final int THREADS = 4;

  private static final Pattern CREDENTIAL =
      Pattern.compile("Credential=([^/,\\s]+)/(\\d{8})/([^/]+)/([^/]+)/aws4_request");

  /** A JSON 1.1 service: its signing name and operations. */
  private record JsonService(String name, String signingName, JsonOperations operations) {}

  @FunctionalInterface
  private interface JsonOperations {
    Object call(String operation, JsonNode in);
  }

  /**
   * The registry the plane's ECR tokens open ({@code GetAuthorizationToken}, {@link
   * AwsEcrOperations}): a setting, since the local platform has no registry of its own.
   *
   * @param proxyEndpoint where to log in, as ECR gives it: {@code scheme://host[:port]}, no path
   *     ({@code http://} for a loopback registry without TLS)
   * @param user the user the token carries ({@code AWS} on ECR)
   * @param password the password the token carries
   */
  public record EcrRegistry(URI proxyEndpoint, String user, String password) {
    public EcrRegistry {
      java.util.Objects.requireNonNull(proxyEndpoint, "proxyEndpoint");
      if (user.isEmpty() || user.contains(":")) {
        throw new IllegalArgumentException(
            "registry user ('" + user + "') must be non-empty and contain no ':'");
      }
    }

    /**
     * What ECR itself would name for {@code wire}'s account and region: user {@code AWS} and a
     * password no registry accepts (no registry stands behind it).
     */
    static EcrRegistry ecrShaped(AwsWire wire) {
      return new EcrRegistry(
          URI.create("https://" + wire.account() + ".dkr.ecr." + wire.region() + ".amazonaws.com"),
          "AWS",
          "local-control-plane");
    }
  }

  private final HttpServer server;
  private final ExecutorService executor;
  private final AwsWire wire;
  private final Map<String, JsonService> byTargetPrefix;
  private final AwsCloudWatchOperations cloudWatch;
  private final AwsCallCounts counts = new AwsCallCounts();

  private AwsControlPlane(
      Platform backend,
      AwsWire wire,
      Clock clock,
      Supplier<List<String>> endpoints,
      InetSocketAddress address,
      @org.jspecify.annotations.Nullable EcrRegistry registry)
      throws IOException {
    this.wire = wire;
    AwsEcrOperations ecr =
        new AwsEcrOperations(registry != null ? registry : EcrRegistry.ecrShaped(wire), clock);
    AwsSageMakerOperations sageMaker = new AwsSageMakerOperations(backend, wire, clock);
    AwsAutoScalingOperations autoScaling =
        new AwsAutoScalingOperations(backend, wire, clock, endpoints);
    AwsLogsOperations logs = new AwsLogsOperations(backend, wire);
    this.cloudWatch = new AwsCloudWatchOperations(backend, wire, clock, endpoints);
    this.byTargetPrefix =
        Map.of(
            "SageMaker", new JsonService("SageMaker", "sagemaker", sageMaker::call),
            "AnyScaleFrontendService",
                new JsonService(
                    "ApplicationAutoScaling", "application-autoscaling", autoScaling::call),
            "Logs_20140328", new JsonService("CloudWatchLogs", "logs", logs::call),
            "AmazonEC2ContainerRegistry_V20150921", new JsonService("ECR", "ecr", ecr::call));
    this.server = HttpServer.create(address, 64);
    this.executor =
        Executors.newFixedThreadPool(
            THREADS, Thread.ofPlatform().daemon().name("aws-control-plane-", 0).factory());
    server.setExecutor(executor);
    server.createContext("/", this::handle);
    server.start();
  }

  /**
   * Serves every local endpoint under {@code stateRoot} on 127.0.0.1:{@code port} (0: any free
   * port), answering as {@code region}.
   */
  public static AwsControlPlane start(Path stateRoot, String region, int port) throws IOException {
    return start(new LocalPlatform(stateRoot), () -> endpoints(stateRoot), region, port);
  }

  /**
   * Serves the endpoints {@code endpoints} lists through {@code backend}, on 127.0.0.1:{@code
   * port}, answering as {@code region}; the caller closes {@code backend} after this plane.
   */
  public static AwsControlPlane start(
      Platform backend, Supplier<List<String>> endpoints, String region, int port)
      throws IOException {
    return start(backend, endpoints, region, port, null);
  }

  /**
   * As {@link #start(Platform, Supplier, String, int)}, with ECR's {@code GetAuthorizationToken}
   * handing out {@code registry}'s endpoint and credentials ({@code null}: an ECR-shaped registry
   * of the local account that nothing serves).
   */
  public static AwsControlPlane start(
      Platform backend,
      Supplier<List<String>> endpoints,
      String region,
      int port,
      @org.jspecify.annotations.Nullable EcrRegistry registry)
      throws IOException {
    return new AwsControlPlane(
        backend,
        new AwsWire(region, AwsWire.LOCAL_ACCOUNT),
        Clock.systemUTC(),
        endpoints,
        new InetSocketAddress(InetAddress.getLoopbackAddress(), port),
        registry);
  }

  /** The endpoints deployed under {@code root}: each directory holding an endpoint record. */
  static List<String> endpoints(Path root) {
    if (!Files.isDirectory(root)) {
      return List.of();
    }
    try (Stream<Path> dirs = Files.list(root)) {
      return dirs.filter(d -> Files.isRegularFile(LocalState.endpointFile(d)))
          .map(d -> d.getFileName().toString())
          .sorted()
          .toList();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot list local endpoints in " + root, e);
    }
  }

  /** Where the SDK's {@code endpointOverride} (the CLI's {@code --endpoint-url}) points. */
  public URI uri() {
    return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
  }

  /** The region this plane answers as. */
  public String region() {
    return wire.region();
  }

  /**
   * Requests answered per {@code Service.Operation} (refusals included), for measurements of the
   * calls a command makes.
   */
  public Map<String, Long> calls() {
    Map<String, Long> out = new TreeMap<>();
    counts.snapshot().forEach((k, v) -> out.put(k, v.calls()));
    return out;
  }

  /**
   * Calls, throttles and errors per {@code Service.Operation}, and the order of the calls: what a
   * test reads to say which calls a command made and how they were answered.
   */
  public AwsCallCounts counts() {
    return counts;
  }

  static AwsWireError unknownOperation(String service, String operation) {
    return new AwsWireError(
        400,
        "UnknownOperationException",
        service + " operation " + operation + " is not served by the local control plane");
  }

  private void count(String operation, @Nullable AwsWireError error) {
    counts.record(operation, error == null ? null : error.code());
  }

  private void handle(HttpExchange x) {
    try (x) {
      byte[] body = x.getRequestBody().readAllBytes();
      String target = x.getRequestHeaders().getFirst("X-Amz-Target");
      if (target != null) {
        json(x, target, body);
      } else {
        query(x, body);
      }
    } catch (IOException e) {
      // The client went away mid-answer; nothing is left to tell it.
      System.err.println("aws control plane: answer not delivered: " + e);
    }
  }

  private void json(HttpExchange x, String target, byte[] body) throws IOException {
    int dot = target.indexOf('.');
    String operation = target.substring(dot + 1);
    JsonService service = dot < 0 ? null : byTargetPrefix.get(target.substring(0, dot));
    String counted = (service == null ? "?" : service.name()) + "." + operation;
    try {
      if (service == null) {
        throw unknownOperation(dot < 0 ? target : target.substring(0, dot), operation);
      }
      admit(x, service.signingName(), false);
      JsonNode in =
          AwsWire.JSON.readTree(body.length == 0 ? "{}".getBytes(StandardCharsets.UTF_8) : body);
      byte[] out = AwsWire.JSON.writeValueAsBytes(service.operations().call(operation, in));
      count(counted, null);
      send(x, 200, "application/x-amz-json-1.1", out);
    } catch (JacksonException e) {
      AwsWireError malformed =
          new AwsWireError(400, "SerializationException", "malformed JSON body");
      count(counted, malformed);
      jsonError(x, malformed);
    } catch (AwsWireError e) {
      count(counted, e);
      jsonError(x, e);
    }
  }

  private void jsonError(HttpExchange x, AwsWireError e) throws IOException {
    var node = AwsWire.JSON.createObjectNode();
    node.put("__type", e.code());
    node.put("message", e.getMessage());
    x.getResponseHeaders().set("x-amzn-ErrorType", e.code());
    send(x, e.status(), "application/x-amz-json-1.1", AwsWire.JSON.writeValueAsBytes(node));
  }

  private void query(HttpExchange x, byte[] body) throws IOException {
    Map<String, String> form = form(new String(body, StandardCharsets.UTF_8));
    String action = form.getOrDefault("Action", "");
    String counted = "CloudWatch." + (action.isEmpty() ? "?" : action);
    try {
      if (action.isEmpty()) {
        throw new AwsWireError(
            400,
            "MissingAction",
            "no X-Amz-Target header and no Action in a form body: not an AWS JSON 1.1 or Query"
                + " request");
      }
      if (!"2010-08-01".equals(form.get("Version"))) {
        throw new AwsWireError(
            400,
            "InvalidAction",
            "CloudWatch's Query API is Version=2010-08-01, not " + form.get("Version"));
      }
      admit(x, "monitoring", true);
      String result = cloudWatch.call(action, form);
      String xml =
          "<"
              + action
              + "Response xmlns=\"http://monitoring.amazonaws.com/doc/2010-08-01/\"><"
              + action
              + "Result>"
              + result
              + "</"
              + action
              + "Result><ResponseMetadata><RequestId>"
              + UUID.randomUUID()
              + "</RequestId></ResponseMetadata></"
              + action
              + "Response>";
      count(counted, null);
      send(x, 200, "text/xml", xml.getBytes(StandardCharsets.UTF_8));
    } catch (AwsWireError e) {
      count(counted, e);
      String xml =
          "<ErrorResponse xmlns=\"http://monitoring.amazonaws.com/doc/2010-08-01/\"><Error>"
              + "<Type>Sender</Type><Code>"
              + AwsWire.xml(e.code())
              + "</Code><Message>"
              + AwsWire.xml(String.valueOf(e.getMessage()))
              + "</Message></Error><RequestId>"
              + UUID.randomUUID()
              + "</RequestId></ErrorResponse>";
      send(x, e.status(), "text/xml", xml.getBytes(StandardCharsets.UTF_8));
    }
  }

  /**
   * The SigV4 credential scope: {@code Credential=<key>/<yyyymmdd>/<region>/<service>/aws4_request}
   * must name this plane's region and {@code signingName}.
   */
  private void admit(HttpExchange x, String signingName, boolean query) {
    String auth = x.getRequestHeaders().getFirst("Authorization");
    Matcher m = auth == null ? null : CREDENTIAL.matcher(auth);
    if (auth == null || m == null || !auth.startsWith("AWS4-HMAC-SHA256 ") || !m.find()) {
      throw new AwsWireError(
          query ? 403 : 400,
          query ? "MissingAuthenticationToken" : "MissingAuthenticationTokenException",
          "Request is missing Authentication Token (a SigV4 Authorization header)");
    }
    String region = m.group(3);
    String service = m.group(4);
    if (!region.equals(wire.region()) || !service.equals(signingName)) {
      String why =
          !region.equals(wire.region())
              ? "Credential should be scoped to a valid region. This control plane answers as '"
                  + wire.region()
                  + "', not '"
                  + region
                  + "'."
              : "Credential should be scoped to correct service: '"
                  + signingName
                  + "', not '"
                  + service
                  + "'.";
      throw query
          ? new AwsWireError(403, "SignatureDoesNotMatch", why)
          : new AwsWireError(400, "InvalidSignatureException", why);
    }
  }

  private static void send(HttpExchange x, int status, String contentType, byte[] body)
      throws IOException {
    x.getResponseHeaders().set("Content-Type", contentType);
    x.getResponseHeaders().set("x-amzn-RequestId", UUID.randomUUID().toString());
    x.sendResponseHeaders(status, body.length);
    x.getResponseBody().write(body);
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

  /** Stops answering; never stops an endpoint. */
  @Override
  public void close() {
    server.stop(0);
    executor.shutdownNow();
  }
}

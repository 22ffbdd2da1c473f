package dev.speechscale.platform.aws;

import dev.speechscale.platform.Invocation;
import dev.speechscale.platform.Invoker;
import dev.speechscale.platform.InvokerTarget;
import dev.speechscale.platform.NanoClock;
import dev.speechscale.platform.ResponseBreakdown;
import dev.speechscale.platform.SynthesisRequest;
import dev.speechscale.platform.Transport;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.jspecify.annotations.Nullable;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;
import software.amazon.awssdk.auth.credentials.ProfileCredentialsProvider;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.awscore.client.builder.AwsAsyncClientBuilder;
import software.amazon.awssdk.awscore.client.builder.AwsClientBuilder;
import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.awscore.retry.AwsRetryStrategy;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.http.Protocol;
import software.amazon.awssdk.http.nio.netty.NettyNioAsyncHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.sagemakerruntime.SageMakerRuntimeAsyncClient;
import software.amazon.awssdk.services.sagemakerruntime.model.InternalStreamFailureException;
import software.amazon.awssdk.services.sagemakerruntime.model.InvokeEndpointWithResponseStreamRequest;
import software.amazon.awssdk.services.sagemakerruntime.model.InvokeEndpointWithResponseStreamResponseHandler;
import software.amazon.awssdk.services.sagemakerruntime.model.ModelErrorException;
import software.amazon.awssdk.services.sagemakerruntime.model.ModelStreamErrorException;

/**
 * SageMaker Runtime InvokeEndpointWithResponseStream through the async SDK client: the response
 * arrives as event-stream {@code PayloadPart} events, and TTFAB is the arrival of the first audio
 * byte after the 44-byte WAV header ({@link WavAudioMeter}).
 *
 * <p>Retries are off: a load generator that silently re-sends a refused request measures its own
 * retry policy, not the endpoint. Every outcome is returned as an {@link Invocation}; nothing
 * throws for a failed request.
 *
 * <p>Credentials: {@code access_key_id}/{@code secret_access_key} options; else fixed placeholder
 * keys for a loopback runtime (the local stand-in does not check signatures); else the {@code
 * profile} option; else the default chain. The {@code max_connections} option bounds the connection
 * pool (default 1024, above any ladder rung).
 */
final class ResponseStreamInvoker implements Invoker {
  private final InvokerTarget target;
  private final SageMakerRuntimeAsyncClient client;

  ResponseStreamInvoker(InvokerTarget target) {
    this.target = target;
    this.client = client(SageMakerRuntimeAsyncClient.builder(), target, Protocol.HTTP1_1);
  }

  /**
   * A runtime client for {@code target}, as both invokers build theirs: its region (us-east-1 when
   * none is given) and base URI, {@link #credentials}, a Netty pool of {@code max_connections}
   * (default 1024) speaking {@code protocol} with the request timeout to acquire a connection and
   * to read, and retries off.
   */
  static <B extends AwsAsyncClientBuilder<B, C> & AwsClientBuilder<B, C>, C> C client(
      B builder, InvokerTarget target, Protocol protocol) {
    int maxConnections = Integer.parseInt(target.options().getOrDefault("max_connections", "1024"));
    return builder
        .region(Region.of(target.region() == null ? "us-east-1" : target.region()))
        .endpointOverride(target.baseUri())
        .credentialsProvider(credentials(target))
        .httpClientBuilder(
            NettyNioAsyncHttpClient.builder()
                .protocol(protocol)
                .maxConcurrency(maxConnections)
                .connectionAcquisitionTimeout(target.requestTimeout())
                .readTimeout(target.requestTimeout()))
        .overrideConfiguration(o -> o.retryStrategy(AwsRetryStrategy.doNotRetry()))
        .build();
  }

  static AwsCredentialsProvider credentials(InvokerTarget target) {
    String key = target.options().get("access_key_id");
    String secret = target.options().get("secret_access_key");
    if (key != null && secret != null) {
      return StaticCredentialsProvider.create(AwsBasicCredentials.create(key, secret));
    }
    if (isLoopback(target.baseUri().getHost())) {
      return StaticCredentialsProvider.create(AwsBasicCredentials.create("local", "local"));
    }
    String profile = target.options().get("profile");
    return profile != null
        ? ProfileCredentialsProvider.create(profile)
        : DefaultCredentialsProvider.builder().build();
  }

  private static boolean isLoopback(String host) {
    if (host == null) {
      return false;
    }
    try {
      return host.equals("localhost") || InetAddress.getByName(host).isLoopbackAddress();
    } catch (UnknownHostException e) {
      return false;
    }
  }

  @Override
  public Transport transport() {
    return Transport.RESPONSE_STREAM;
  }

  @Override
  public Connection connect() {
    return new StreamConnection();
  }

  @Override
  public void close() {
    client.close();
  }

  /** Shares the client's connection pool; one request at a time per worker. */
  private final class StreamConnection implements Connection {
    @Override
    public Invocation invoke(SynthesisRequest request) {
      NanoClock clock = target.clock();
      WavAudioMeter meter = new WavAudioMeter(clock);
      InvokeEndpointWithResponseStreamRequest call =
          InvokeEndpointWithResponseStreamRequest.builder()
              .endpointName(target.endpointName())
              .contentType("application/json")
              .body(SdkBytes.fromString(request.toJson(), StandardCharsets.UTF_8))
              .build();
      InvokeEndpointWithResponseStreamResponseHandler handler =
          InvokeEndpointWithResponseStreamResponseHandler.builder()
              .subscriber(
                  InvokeEndpointWithResponseStreamResponseHandler.Visitor.builder()
                      .onPayloadPart(p -> meter.accept(p.bytes().asByteArrayUnsafe().length))
                      .build())
              .build();
      long sent = clock.nanoTime();
      CompletableFuture<Void> done = client.invokeEndpointWithResponseStream(call, handler);
      Duration timeout = target.requestTimeout();
      try {
        done.get(timeout.toNanos(), TimeUnit.NANOSECONDS);
      } catch (TimeoutException e) {
        done.cancel(true);
        return failed(
            meter,
            sent,
            clock,
            Invocation.Outcome.TRANSPORT_ERROR,
            0,
            "no complete response within " + timeout);
      } catch (InterruptedException e) {
        done.cancel(true);
        Thread.currentThread().interrupt();
        return failed(meter, sent, clock, Invocation.Outcome.TRANSPORT_ERROR, 0, "interrupted");
      } catch (ExecutionException e) {
        return classify(e.getCause() == null ? e : e.getCause(), meter, sent, clock);
      }
      long completed = clock.nanoTime();
      if (meter.audioBytes() == 0) {
        return new Invocation(
            Invocation.Outcome.SERVER_ERROR,
            200,
            sent,
            -1,
            completed,
            0,
            "the stream ended with no audio after the "
                + WavAudioMeter.WAV_HEADER_BYTES
                + "-byte WAV header",
            ResponseBreakdown.UNKNOWN);
      }
      return new Invocation(
          Invocation.Outcome.OK,
          200,
          sent,
          meter.firstAudioNanos(),
          completed,
          meter.audioBytes(),
          null,
          ResponseBreakdown.UNKNOWN);
    }

    @Override
    public void close() {
      // The pool belongs to the invoker.
    }
  }

  /** How a failed invocation ends, from what the SDK reported. */
  static Invocation classify(Throwable t, WavAudioMeter meter, long sent, NanoClock clock) {
    Throwable e = AwsErrors.serviceCause(t);
    if (e instanceof ModelStreamErrorException mse) {
      return failedAfter200(
          meter, sent, clock, "ModelStreamError " + mse.errorCode(), AwsErrors.serviceMessage(mse));
    }
    if (e instanceof InternalStreamFailureException isf) {
      return failedAfter200(
          meter, sent, clock, "InternalStreamFailure", AwsErrors.serviceMessage(isf));
    }
    if (e instanceof AwsServiceException ase) {
      int status = ase.statusCode();
      String text = AwsErrors.serviceMessage(ase);
      if (ase instanceof ModelErrorException me && me.originalStatusCode() != null) {
        status = me.originalStatusCode();
        text = me.originalMessage() != null ? me.originalMessage() : text;
      }
      return failed(meter, sent, clock, outcome(status, text), status, text);
    }
    return failed(
        meter,
        sent,
        clock,
        Invocation.Outcome.TRANSPORT_ERROR,
        0,
        t.getClass().getSimpleName() + ": " + t.getMessage());
  }

  /**
   * 408 and the container's 503 {@code queue_saturated} are admission refusals; other 4xx are the
   * client's; everything else is a server error.
   */
  static Invocation.Outcome outcome(int status, @Nullable String text) {
    boolean saturated = text != null && text.toLowerCase(Locale.ROOT).contains("queue_saturated");
    if (status == 408 || (status == 503 && saturated)) {
      return Invocation.Outcome.REJECTED;
    }
    if (status >= 400 && status < 500) {
      return Invocation.Outcome.CLIENT_ERROR;
    }
    return Invocation.Outcome.SERVER_ERROR;
  }

  /** A stream that broke after its 200 (the SDK's {@code error}): a server error. */
  private static Invocation failedAfter200(
      WavAudioMeter meter, long sent, NanoClock clock, String error, @Nullable String message) {
    return failed(
        meter,
        sent,
        clock,
        Invocation.Outcome.SERVER_ERROR,
        200,
        "the stream failed after the 200 (" + error + "): " + message);
  }

  private static Invocation failed(
      WavAudioMeter meter,
      long sent,
      NanoClock clock,
      Invocation.Outcome outcome,
      int status,
      @Nullable String error) {
    return new Invocation(
        outcome,
        status,
        sent,
        meter.firstAudioNanos(),
        clock.nanoTime(),
        meter.audioBytes(),
        error,
        ResponseBreakdown.UNKNOWN);
  }
}

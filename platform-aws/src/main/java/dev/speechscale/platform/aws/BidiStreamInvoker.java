package dev.speechscale.platform.aws;

import dev.speechscale.platform.Invocation;
import dev.speechscale.platform.Invoker;
import dev.speechscale.platform.InvokerTarget;
import dev.speechscale.platform.NanoClock;
import dev.speechscale.platform.SynthesisRequest;
import dev.speechscale.platform.Transport;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import org.jspecify.annotations.Nullable;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.http.Protocol;
import software.amazon.awssdk.services.sagemakerruntimehttp2.SageMakerRuntimeHttp2AsyncClient;
import software.amazon.awssdk.services.sagemakerruntimehttp2.model.InvokeEndpointWithBidirectionalStreamResponseHandler;
import software.amazon.awssdk.services.sagemakerruntimehttp2.model.RequestStreamEvent;
import software.amazon.awssdk.utils.async.SimplePublisher;

/**
 * {@link Transport#BIDI} on SageMaker: InvokeEndpointWithBidirectionalStream through the SDK's
 * {@code sagemakerruntimehttp2} async client (HTTP/2 on Netty; TLS with ALPN h2 to the region's
 * {@code runtime.sagemaker.REGION.amazonaws.com:8443}, h2c with prior knowledge to an {@code
 * http://} endpoint such as the local runtime API). Each {@link Invoker.Connection} is one stream
 * kept open across requests, as the WebSocket transport keeps one session: a request is one UTF8
 * {@code PayloadPart} carrying the container's JSON message, answered by {@code synthesis_start},
 * BINARY parts of PCM and {@code synthesis_complete} ({@link BidiExchange} reads them; TTFAB is the
 * arrival of the first BINARY part). A stream that ended, failed or timed out is replaced by a new
 * one on the next request.
 *
 * <p>Retries are off, as for {@link ResponseStreamInvoker}, and credentials are chosen the same
 * way; the {@code max_connections} option bounds the Netty pool (default 1024). Not found by {@link
 * java.util.ServiceLoader}: loadgen's WebSocket invoker is {@link Transport#BIDI}'s provider for
 * the container and the local router, and {@link AwsPlatform#invoker} builds this one.
 */
final class BidiStreamInvoker implements Invoker {
  private final InvokerTarget target;
  private final SageMakerRuntimeHttp2AsyncClient client;
  private final AtomicInteger streams = new AtomicInteger();

  BidiStreamInvoker(InvokerTarget target) {
    this.target = target;
    this.client =
        ResponseStreamInvoker.client(
            SageMakerRuntimeHttp2AsyncClient.builder(), target, Protocol.HTTP2);
  }

  @Override
  public Transport transport() {
    return Transport.BIDI;
  }

  @Override
  public Connection connect() {
    return new StreamConnection("aws" + streams.getAndIncrement());
  }

  @Override
  public void close() {
    client.close();
  }

  /** One bidirectional stream, opened on the first request and reused while it lives. */
  private final class StreamConnection implements Connection {
    private final String idPrefix;
    private long requests;
    private @Nullable Stream stream;

    StreamConnection(String idPrefix) {
      this.idPrefix = idPrefix;
    }

    @Override
    public Invocation invoke(SynthesisRequest request) {
      NanoClock clock = target.clock();
      String requestId = idPrefix + "-" + requests++;
      if (stream == null || stream.done.isDone()) {
        stream = open();
      }
      long sent = clock.nanoTime();
      stream.input.send(
          RequestStreamEvent.payloadPartBuilder()
              .bytes(SdkBytes.fromUtf8String(request.toSessionJson(requestId)))
              .dataType("UTF8")
              .build());
      BidiExchange exchange = new BidiExchange(requestId, sent, clock);
      long deadline = sent + target.requestTimeout().toNanos();
      try {
        while (true) {
          long left = deadline - clock.nanoTime();
          BidiExchange.Received r =
              left <= 0 ? null : stream.received.poll(left, TimeUnit.NANOSECONDS);
          if (r == null) {
            abandon();
            return exchange.fail(
                Invocation.Outcome.TRANSPORT_ERROR,
                "timed out: no synthesis_complete within the request timeout ("
                    + target.requestTimeout()
                    + "); the stream was closed");
          }
          Invocation done = exchange.accept(r);
          if (done != null) {
            if (r instanceof BidiExchange.Received.Ended) {
              stream = null;
            }
            return done;
          }
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        abandon();
        return exchange.fail(Invocation.Outcome.TRANSPORT_ERROR, "interrupted");
      }
    }

    private Stream open() {
      NanoClock clock = target.clock();
      BlockingQueue<BidiExchange.Received> received = new LinkedBlockingQueue<>();
      SimplePublisher<RequestStreamEvent> input = new SimplePublisher<>();
      InvokeEndpointWithBidirectionalStreamResponseHandler handler =
          InvokeEndpointWithBidirectionalStreamResponseHandler.builder()
              .subscriber(
                  InvokeEndpointWithBidirectionalStreamResponseHandler.Visitor.builder()
                      .onPayloadPart(p -> {
                        long at = clock.nanoTime();
                        received.add(
                            "UTF8".equals(p.dataType())
                                ? new BidiExchange.Received.Text(p.bytes().asUtf8String(), at)
                                : new BidiExchange.Received.Audio(
                                    p.bytes().asByteArrayUnsafe().length, at));
                      })
                      .build())
              .build();
      CompletableFuture<Void> done =
          client.invokeEndpointWithBidirectionalStream(
              r -> r.endpointName(target.endpointName()), input, handler);
      done.whenComplete((ok, failure) -> received.add(new BidiExchange.Received.Ended(failure)));
      return new Stream(input, received, done);
    }

    /** Drops a stream whose state is unknown (a timeout): the next request opens another. */
    private void abandon() {
      Stream s = stream;
      stream = null;
      if (s != null) {
        s.done.cancel(true);
        s.input.complete();
      }
    }

    @Override
    public void close() {
      Stream s = stream;
      stream = null;
      if (s == null || s.done.isDone()) {
        return;
      }
      s.input.send(
          RequestStreamEvent.payloadPartBuilder()
              .bytes(SdkBytes.fromUtf8String("{\"type\":\"close\"}"))
              .dataType("UTF8")
              .build());
      s.input.complete();
      try {
        s.done.get(10, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        s.done.cancel(true);
      } catch (TimeoutException | java.util.concurrent.ExecutionException e) {
        s.done.cancel(true); // the stream's outcome no longer matters: every request was answered
      }
    }
  }

  /** A live stream: what the client sends, what arrives, and its completion. */
  private record Stream(
      SimplePublisher<RequestStreamEvent> input,
      BlockingQueue<BidiExchange.Received> received,
      CompletableFuture<Void> done) {}
}

package dev.speechscale.platform.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.core.retry.RetryPolicy;
import software.amazon.awssdk.http.nio.netty.NettyNioAsyncHttpClient;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.sagemakerruntime.SageMakerRuntimeAsyncClient;
import software.amazon.awssdk.services.sagemakerruntime.SageMakerRuntimeClient;
import software.amazon.awssdk.services.sagemakerruntime.model.InvokeEndpointResponse;
import software.amazon.awssdk.services.sagemakerruntime.model.InvokeEndpointWithResponseStreamRequest;
import software.amazon.awssdk.services.sagemakerruntime.model.InvokeEndpointWithResponseStreamResponseHandler;
import software.amazon.awssdk.services.sagemakerruntime.model.ModelErrorException;
import software.amazon.awssdk.services.sagemakerruntime.model.PayloadPart;
import software.amazon.awssdk.services.sagemakerruntime.model.ResponseStream;
import software.amazon.awssdk.services.sagemakerruntime.model.ValidationErrorException;

/**
 * The local SageMaker Runtime API against an unmodified AWS SDK for Java v2 client with an endpoint
 * override and dummy credentials: InvokeEndpoint and InvokeEndpointWithResponseStream return real
 * audio, and container errors arrive as the SDK's own exceptions.
 */
class RuntimeApiSdkTest {
  @TempDir static Path dir;
  static LocalEndpoint endpoint;
  static StaticCredentialsProvider credentials =
      StaticCredentialsProvider.create(AwsBasicCredentials.create("local", "local"));

  @BeforeAll
  static void deploy() throws Exception {
    endpoint =
        LocalEndpoint.deploy(
            dir,
            "sdk",
            """
            models:
              sdk: {engine: flite, instance_type: local.1cpu, min_instances: 1, max_instances: 1}
            """,
            false);
  }

  @AfterAll
  static void destroy() {
    endpoint.close();
  }

  private static SageMakerRuntimeClient sync() {
    return SageMakerRuntimeClient.builder()
        .endpointOverride(URI.create(endpoint.url()))
        .region(Region.US_EAST_1)
        .credentialsProvider(credentials)
        .httpClient(UrlConnectionHttpClient.create())
        .overrideConfiguration(c -> c.retryPolicy(RetryPolicy.none()))
        .build();
  }

  @Test
  void invokeEndpoint_returnsABufferedWav() {
    try (SageMakerRuntimeClient client = sync()) {
      InvokeEndpointResponse r =
          client.invokeEndpoint(b ->
              b.endpointName("speech-sdk")
                  .contentType("application/json")
                  .body(
                      SdkBytes.fromUtf8String(
                          "{\"text\":\"Hello from the AWS SDK.\",\"stream\":false}")));

      assertThat(r.contentType()).isEqualTo("audio/wav");
      assertThat(r.invokedProductionVariant()).isEqualTo("AllTraffic");
      byte[] wav = r.body().asByteArray();
      assertThat(new String(wav, 0, 4, java.nio.charset.StandardCharsets.US_ASCII))
          .isEqualTo("RIFF");
      assertThat(rms(wav, 44)).isGreaterThan(100);
    }
  }

  @Test
  void invokeEndpoint_containerRejection_isAModelErrorWithTheOriginalStatus() {
    try (SageMakerRuntimeClient client = sync()) {
      assertThatThrownBy(() ->
              client.invokeEndpoint(b ->
                  b.endpointName("speech-sdk")
                      .contentType("application/json")
                      .body(SdkBytes.fromUtf8String("{\"speed\":1}"))))
          .isInstanceOfSatisfying(
              ModelErrorException.class,
              e -> {
                assertThat(e.originalStatusCode()).isEqualTo(400);
                assertThat(e.originalMessage()).contains("text");
                assertThat(e.statusCode()).isEqualTo(424);
              });
    }
  }

  @Test
  void invokeEndpoint_unknownEndpoint_isAValidationError() {
    try (SageMakerRuntimeClient client = sync()) {
      assertThatThrownBy(() ->
              client.invokeEndpoint(b ->
                  b.endpointName("speech-nope")
                      .contentType("application/json")
                      .body(SdkBytes.fromUtf8String("{}"))))
          .isInstanceOf(ValidationErrorException.class)
          .hasMessageContaining("speech-nope");
    }
  }

  @Test
  void invokeEndpointWithResponseStream_streamsTheWavInPayloadParts() throws Exception {
    ByteArrayOutputStream audio = new ByteArrayOutputStream();
    int[] parts = {0};
    try (SageMakerRuntimeAsyncClient client =
        SageMakerRuntimeAsyncClient.builder()
            .endpointOverride(URI.create(endpoint.url()))
            .region(Region.US_EAST_1)
            .credentialsProvider(credentials)
            .httpClientBuilder(NettyNioAsyncHttpClient.builder())
            .overrideConfiguration(c -> c.retryPolicy(RetryPolicy.none()))
            .build()) {
      InvokeEndpointWithResponseStreamResponseHandler handler =
          InvokeEndpointWithResponseStreamResponseHandler.builder()
              .subscriber(
                  InvokeEndpointWithResponseStreamResponseHandler.Visitor.builder()
                      .onPayloadPart((PayloadPart p) -> {
                        parts[0]++;
                        audio.writeBytes(p.bytes().asByteArray());
                      })
                      .onDefault((ResponseStream e) -> {})
                      .build())
              .build();
      client
          .invokeEndpointWithResponseStream(
              InvokeEndpointWithResponseStreamRequest.builder()
                  .endpointName("speech-sdk")
                  .contentType("application/json")
                  .body(
                      SdkBytes.fromUtf8String(
                          "{\"text\":\"Streaming through the SageMaker Runtime API. Second"
                              + " sentence here.\"}"))
                  .build(),
              handler)
          .get(60, TimeUnit.SECONDS);
    }

    byte[] wav = audio.toByteArray();
    assertThat(parts[0]).isPositive();
    assertThat(new String(wav, 0, 4, java.nio.charset.StandardCharsets.US_ASCII)).isEqualTo("RIFF");
    assertThat(wav.length - 44).isGreaterThan(16_000);
    assertThat(rms(wav, 44)).isGreaterThan(100);
  }

  /** Root mean square of 16-bit LE PCM after {@code offset}: silence is near 0. */
  static double rms(byte[] wav, int offset) {
    ByteBuffer b = ByteBuffer.wrap(wav, offset, wav.length - offset).order(ByteOrder.LITTLE_ENDIAN);
    double sum = 0;
    long n = 0;
    while (b.remaining() >= 2) {
      double s = b.getShort();
      sum += s * s;
      n++;
    }
    return n == 0 ? 0 : Math.sqrt(sum / n);
  }
}

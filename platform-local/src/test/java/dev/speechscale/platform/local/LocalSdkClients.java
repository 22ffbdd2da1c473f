package dev.speechscale.platform.local;

import java.net.URI;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.retry.RetryPolicy;
import software.amazon.awssdk.http.nio.netty.NettyNioAsyncHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.sagemakerruntimehttp2.SageMakerRuntimeHttp2AsyncClient;

/** The unmodified AWS SDK clients the runtime-API tests aim at a local router. */
final class LocalSdkClients {
  private LocalSdkClients() {}

  /** The bidirectional-streaming runtime client against {@code url}, no retries. */
  static SageMakerRuntimeHttp2AsyncClient bidi(String url) {
    return SageMakerRuntimeHttp2AsyncClient.builder()
        .endpointOverride(URI.create(url))
        .region(Region.US_EAST_1)
        .credentialsProvider(
            StaticCredentialsProvider.create(AwsBasicCredentials.create("local", "local")))
        .httpClientBuilder(NettyNioAsyncHttpClient.builder())
        .overrideConfiguration(c -> c.retryPolicy(RetryPolicy.none()))
        .build();
  }
}

package dev.speechscale.platform.aws;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.sagemaker.model.DescribeEndpointConfigRequest;
import software.amazon.awssdk.services.sagemaker.model.DescribeEndpointConfigResponse;
import software.amazon.awssdk.services.sagemaker.model.DescribeEndpointRequest;
import software.amazon.awssdk.services.sagemaker.model.DescribeEndpointResponse;
import software.amazon.awssdk.services.sagemaker.model.DescribeModelRequest;
import software.amazon.awssdk.services.sagemaker.model.DescribeModelResponse;
import software.amazon.awssdk.services.sagemaker.model.ProductionVariant;
import software.amazon.awssdk.services.sagemaker.model.UpdateEndpointWeightsAndCapacitiesRequest;

class EndpointReaderTest {
  /** The endpoint configuration names SageMaker was asked to describe, in order. */
  private final List<String> configCalls = new ArrayList<>();

  private final AwsApis.SageMakerApi sageMaker =
      new AwsApis.SageMakerApi() {
        @Override
        public DescribeEndpointResponse describeEndpoint(DescribeEndpointRequest r) {
          throw new UnsupportedOperationException();
        }

        @Override
        public DescribeEndpointConfigResponse describeEndpointConfig(
            DescribeEndpointConfigRequest r) {
          configCalls.add(r.endpointConfigName());
          return DescribeEndpointConfigResponse.builder()
              .endpointConfigName(r.endpointConfigName())
              .productionVariants(
                  ProductionVariant.builder()
                      .variantName("AllTraffic")
                      .instanceType(
                          r.endpointConfigName().endsWith("-2") ? "ml.g5.2xlarge" : "ml.g5.xlarge")
                      .build())
              .build();
        }

        @Override
        public DescribeModelResponse describeModel(DescribeModelRequest r) {
          throw new UnsupportedOperationException();
        }

        @Override
        public void updateEndpointWeightsAndCapacities(
            UpdateEndpointWeightsAndCapacitiesRequest r) {
          throw new UnsupportedOperationException();
        }
      };

  private static DescribeEndpointResponse endpoint(String configName) {
    return DescribeEndpointResponse.builder()
        .endpointName("speech-kokoro")
        .endpointConfigName(configName)
        .build();
  }

  @Test
  void configuredVariant_describesEachEndpointConfigOnce_andANewConfigAfterAnUpdate() {
    EndpointReader reader = new EndpointReader(sageMaker);

    for (int i = 0; i < 3; i++) {
      assertThat(
              reader
                  .configuredVariant(endpoint("speech-kokoro-1"), "AllTraffic")
                  .instanceTypeAsString())
          .isEqualTo("ml.g5.xlarge");
    }
    // an UpdateEndpoint points the endpoint at a new config: that one is read, once
    assertThat(
            reader
                .configuredVariant(endpoint("speech-kokoro-2"), "AllTraffic")
                .instanceTypeAsString())
        .isEqualTo("ml.g5.2xlarge");
    reader.configuredVariant(endpoint("speech-kokoro-2"), "AllTraffic");

    assertThat(configCalls).containsExactly("speech-kokoro-1", "speech-kokoro-2");
  }
}

package dev.speechscale.platform.aws;

import dev.speechscale.platform.Invoker;
import dev.speechscale.platform.InvokerProvider;
import dev.speechscale.platform.InvokerTarget;
import dev.speechscale.platform.Transport;

/**
 * The {@code response-stream} transport for {@link dev.speechscale.platform.Invokers}: SageMaker
 * Runtime InvokeEndpointWithResponseStream against {@link InvokerTarget#baseUri()} (the region's
 * runtime endpoint, or a local stand-in that speaks the same API).
 */
public final class ResponseStreamInvokerProvider implements InvokerProvider {
  @Override
  public Transport transport() {
    return Transport.RESPONSE_STREAM;
  }

  @Override
  public Invoker create(InvokerTarget target) {
    return new ResponseStreamInvoker(target);
  }
}

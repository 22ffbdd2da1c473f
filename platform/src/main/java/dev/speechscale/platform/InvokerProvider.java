package dev.speechscale.platform;

/**
 * Creates invokers for one transport; implementations are found with {@link
 * java.util.ServiceLoader} ({@code META-INF/services/dev.speechscale.platform.InvokerProvider}), so
 * a platform can hand out an invoker whose client library it does not depend on (the SageMaker
 * Runtime client lives only in the AWS module).
 */
public interface InvokerProvider {
  Transport transport();

  Invoker create(InvokerTarget target);
}

package dev.speechscale.platform;

import java.net.URI;
import java.nio.file.Path;
import org.jspecify.annotations.Nullable;

/**
 * Where and as whom to reach a platform: every setting any provider reads, each {@code null} when
 * not given. A provider reads its own and ignores the rest (local: {@code stateDir}; aws: the
 * others).
 *
 * @param stateDir local control state directory
 * @param region cloud region
 * @param account cloud account
 * @param profile credentials profile
 * @param runtimeUrl an override for the runtime (invocation) endpoint
 * @param cloudAssemblyDir where deployment templates are written
 * @param endpointUrl an override for the control-plane endpoints (every AWS service the provider
 *     calls other than the runtime), e.g. the local platform's AWS-shaped control plane
 */
public record PlatformSettings(
    @Nullable Path stateDir,
    @Nullable String region,
    @Nullable String account,
    @Nullable String profile,
    @Nullable URI runtimeUrl,
    @Nullable Path cloudAssemblyDir,
    @Nullable URI endpointUrl) {

  /** Settings without a control-plane endpoint override. */
  public PlatformSettings(
      @Nullable Path stateDir,
      @Nullable String region,
      @Nullable String account,
      @Nullable String profile,
      @Nullable URI runtimeUrl,
      @Nullable Path cloudAssemblyDir) {
    this(stateDir, region, account, profile, runtimeUrl, cloudAssemblyDir, null);
  }
}

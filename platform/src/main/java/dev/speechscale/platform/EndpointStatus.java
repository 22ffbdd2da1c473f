package dev.speechscale.platform;

/** SageMaker's endpoint lifecycle, which the local platform mirrors. */
public enum EndpointStatus {
  CREATING,
  IN_SERVICE,
  UPDATING,
  SYSTEM_UPDATING,
  ROLLING_BACK,
  OUT_OF_SERVICE,
  DELETING,
  FAILED
}

package dev.speechscale.platform;

import java.time.Instant;

/**
 * An endpoint as the platform reports it.
 *
 * @param name endpoint name ({@code speech-<model>})
 * @param status lifecycle status
 * @param desiredInstances instances asked for
 * @param currentInstances instances in service
 * @param instanceType the instance type of its variant
 * @param observedAt when the platform answered
 */
public record EndpointDescription(
    String name,
    EndpointStatus status,
    int desiredInstances,
    int currentInstances,
    String instanceType,
    Instant observedAt) {}

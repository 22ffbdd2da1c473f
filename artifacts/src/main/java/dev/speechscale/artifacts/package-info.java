/**
 * The artifacts the commands hand to each other — the product's stable interface.
 *
 * <p>Every artifact is JSON (snake_case) with {@code schema_version} (1), {@code kind}, the tool
 * version, {@code created_at} and provenance; each kind has a JSON Schema under {@code
 * dev/speechscale/artifacts/schema/} that readers enforce and tests hold every written artifact to.
 * Writes are atomic (temporary file, then rename). Readers accept a hand-written artifact that
 * carries only the raw measurements and recompute every derived value from them (Q_max, bracketing,
 * service time, ratios, stage durations), because a derived number that disagrees with its own
 * evidence is worse than none.
 *
 * <p>Fingerprints tie a measurement to what was measured: {@code deployed_config = {instance_type,
 * image_digest, container_env}}, shown as the slug {@code <family>-<digest8>}. A missing
 * fingerprint never pairs with anything.
 */
package dev.speechscale.artifacts;

/**
 * Observation hooks: what the library tells an observer about model calls, tool executions, queue claims,
 * completions and expired leases, and extraction runs, so that an application can turn them into metrics
 * and traces (the Spring Boot starter does it with Micrometer). Dependency-free; the default observer,
 * {@link dev.taskagent.observe.TaskObserver#none()}, does nothing.
 *
 * <p>Tier: SPI. New hooks arrive as {@code default} methods that do nothing, so that observers keep
 * compiling.
 */
package dev.taskagent.observe;

/**
 * Spring Boot auto-configuration of taskagent: every bean is created only when the application has none of its
 * type, and each can be switched off with a {@code taskagent.*} property ({@link
 * dev.taskagent.spring.boot.autoconfigure.TaskAgentProperties}).
 *
 * <p>Tier: API for the properties, the lifecycle beans, {@link
 * dev.taskagent.spring.boot.autoconfigure.MicrometerTaskObserver} and the metrics; the auto-configuration
 * classes are public only because Spring Boot loads them by name.
 */
package dev.taskagent.spring.boot.autoconfigure;

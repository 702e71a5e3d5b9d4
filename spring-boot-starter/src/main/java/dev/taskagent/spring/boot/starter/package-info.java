/**
 * The taskagent Spring Boot starter has no code: it brings {@code taskagent-spring-boot-autoconfigure}, the
 * JDBC and in-memory stores and the OpenAI adapter. Its README lists the properties and the beans.
 *
 * <p>Tier: none (a package so that the starter's sources and javadoc jars are not empty).
 */
package dev.taskagent.spring.boot.starter;

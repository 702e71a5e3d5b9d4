/**
 * The step execution suite: an abstract JUnit 5 class that runs {@code StepExecutor} and {@code TaskSteps}
 * against any {@code TaskStore}. <p>Tier: API (for tests).
 */
package dev.taskagent.testkit.steps;

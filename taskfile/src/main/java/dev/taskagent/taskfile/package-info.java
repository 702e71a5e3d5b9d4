/**
 * User-defined tasks from a go-task Taskfile: {@link dev.taskagent.taskfile.TaskfileTools} reads a
 * project's {@code .agent/Taskfile.yml} and returns the {@code list_user_tasks} and {@code run_user_task}
 * tools. Everything else in this package is an implementation detail (package-private).
 *
 * <p>Tier: API.
 */
package dev.taskagent.taskfile;

/**
 * taskagent taskfile: the {@code list_user_tasks} and {@code run_user_task} tools over a project's
 * {@code .agent/Taskfile.yml} (a subset of go-task's Taskfile v3, run in Java with {@code bash}).
 */
module dev.taskagent.taskfile {
    requires transitive dev.taskagent.core;
    requires com.fasterxml.jackson.databind;
    requires org.snakeyaml.engine.v2;
    requires org.slf4j;

    exports dev.taskagent.taskfile;
}

package dev.taskagent.extraction;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The prompt covers every point the extraction agent must be told: its role, the tools, the rules of each. */
class SystemPromptTest {
    private final String prompt = SystemPrompt.text();

    @Test
    void saysTasksAreUserRequestsInTheUsersWordsWithARightAndAWrongExample() {
        assertThat(prompt).contains("something the USER asked for, written in the user's own words");
        assertThat(prompt).contains("Book a table for four").contains("Right:").contains("Wrong:");
        assertThat(prompt).contains("One message can hold several requests: make one task for each");
        assertThat(prompt).contains("Right: two tasks");
    }

    @Test
    void separatesUserRequestsFromExecutionSteps() {
        assertThat(prompt).contains("is NOT a task. It is progress of the task it serves");
    }

    @Test
    void asksForConciseSpecificHonestProgressWithoutAStepPrefix() {
        assertThat(prompt).contains("append_task_progress").contains("concise and specific");
        assertThat(prompt).contains("never invent");
        assertThat(prompt).contains("Good: \"Created login component in src/Login.tsx\"");
        assertThat(prompt).contains("Bad: \"Started working on the login feature\"");
        assertThat(prompt).contains("No first person, no \"Step:\"");
    }

    @Test
    void explainsThatSettingAPreferenceReplacesItWithTheMergedLatestIntent() {
        assertThat(prompt).contains("set_task_user_preference REPLACES that text completely");
        assertThat(prompt).contains("shown in the listing as User Prefs");
        assertThat(prompt).contains("write the complete merged preference");
        assertThat(prompt).contains("keep only the user's latest intent");
        assertThat(prompt)
                .contains("e-mail addresses, technology and stack choices")
                .contains("constraints");
    }

    @Test
    void saysLinkingMessagesOnlyLinksAndSetsRunning() {
        assertThat(prompt).contains("append_messages_to_task only links messages to a task (and sets the task running");
    }

    @Test
    void keepsPlanningDetectionAndTheFourStatusRules() {
        assertThat(prompt).contains("append_messages_to_planning_section");
        assertThat(prompt).contains("- pending: not started yet.");
        assertThat(prompt).contains("- running: work on it began, or it was restarted after a failure.");
        assertThat(prompt).contains("- success: the user or the messages confirm it is done, or the agent moved on");
        assertThat(prompt)
                .contains("- failed: explicit errors")
                .contains("abandoned")
                .contains("failure was");
    }

    @Test
    void saysFinishedTasksTakeNoMessagesOrProgressUntilSetRunning() {
        assertThat(prompt)
                .contains("A task in success or failed accepts no linked messages and no progress")
                .contains("first set it running with update_task");
    }

    @Test
    void asksForReportThinkingFirstWithAChecklistNamingTheToolsAndACheckBeforeFinish() {
        assertThat(prompt).contains("Call report_thinking first");
        String checklist = prompt.substring(prompt.indexOf("Call report_thinking first"));
        assertThat(checklist)
                .contains("planning (append_messages_to_planning_section)")
                .contains("failed task the user wants rerun (update_task to running first)")
                .contains("How does each existing task relate to the new messages")
                .contains("insert_task, in the user's words")
                .contains("append_messages_to_task")
                .contains("set_task_user_preference")
                .contains("append_task_progress")
                .contains("Which statuses change (update_task)")
                .contains("can go together")
                .contains("Before calling finish, check that every action of your checklist is done");
    }

    @Test
    void isNonInteractive() {
        assertThat(prompt).contains("never ask for confirmation");
    }

    @Test
    void namesEveryToolOfTheToolset() {
        ExtractionTools.definitions(ExtractionTools.withoutSteps())
                .forEach(definition -> assertThat(prompt).contains(definition.name()));
    }

    @Test
    void hasNoTraceOfTheOldCombinedPreferenceParameter() {
        assertThat(prompt).doesNotContain("user_preference_and_infos");
        ExtractionTools.definitions(ExtractionTools.withSteps()).forEach(definition -> {
            assertThat(definition.description()).doesNotContain("user_preference_and_infos");
            assertThat(definition.parametersSchemaJson()).doesNotContain("user_preference_and_infos");
        });
    }
}

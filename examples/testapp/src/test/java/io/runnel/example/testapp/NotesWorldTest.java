package io.runnel.example.testapp;

import io.runnel.testing.FreshDatabase;
import io.runnel.testing.TestDatabase;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;

/** A test class over one {@link NotesWorld}: a fresh database, the replicator and the node, started once per class. */
@FreshDatabase
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class NotesWorldTest {

  NotesWorld world;

  @BeforeAll
  void start(TestDatabase db) throws Exception {
    world = new NotesWorld(db);
  }

  @AfterAll
  void stop() {
    world.close();
  }
}

-- The fixed seed anyone can script against: orgs acme and globex; ada and alan in acme, grace in globex; 20 posts
-- (14 in acme, 6 in globex), with ids and times that are the same on every machine.
INSERT INTO orgs (id, name) VALUES ('acme', 'Acme'), ('globex', 'Globex');
INSERT INTO users (id, org_id, name) VALUES
  ('ada', 'acme', 'Ada Lovelace'),
  ('alan', 'acme', 'Alan Turing'),
  ('grace', 'globex', 'Grace Hopper');
INSERT INTO posts (id, org_id, author_id, title, body, created_at)
SELECT md5('runnel-seed-post-' || n)::uuid,
       CASE WHEN n <= 14 THEN 'acme' ELSE 'globex' END,
       CASE WHEN n > 14 THEN 'grace' WHEN n % 2 = 1 THEN 'ada' ELSE 'alan' END,
       'Seed post ' || n,
       'Post number ' || n || ' of the seed.',
       timestamptz '2026-01-01 09:00:00+00' + n * interval '1 hour'
FROM generate_series(1, 20) AS n;

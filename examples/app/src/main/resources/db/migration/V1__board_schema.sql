-- The team board: organisations, their users, posts and likes (one per user and post).
CREATE TABLE orgs (
  id text PRIMARY KEY,
  name text NOT NULL
);

CREATE TABLE users (
  id text PRIMARY KEY,
  org_id text NOT NULL REFERENCES orgs (id),
  name text NOT NULL
);

-- created_at is the server's clock at the insert (clock_timestamp(), so two posts of one transaction differ too).
CREATE TABLE posts (
  id uuid PRIMARY KEY,
  org_id text NOT NULL REFERENCES orgs (id),
  author_id text NOT NULL REFERENCES users (id),
  title text NOT NULL CHECK (length(title) BETWEEN 1 AND 200),
  body text NOT NULL CHECK (length(body) <= 4000),
  like_count integer NOT NULL DEFAULT 0 CHECK (like_count >= 0),
  created_at timestamptz NOT NULL DEFAULT clock_timestamp()
);
CREATE INDEX posts_feed ON posts (org_id, created_at DESC);

-- A like carries its post's org, so the like is scoped to the tenant like the post.
CREATE TABLE likes (
  post_id uuid NOT NULL REFERENCES posts (id) ON DELETE CASCADE,
  user_id text NOT NULL REFERENCES users (id),
  org_id text NOT NULL REFERENCES orgs (id),
  created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
  PRIMARY KEY (post_id, user_id)
);
CREATE INDEX likes_of_user ON likes (user_id, created_at DESC);

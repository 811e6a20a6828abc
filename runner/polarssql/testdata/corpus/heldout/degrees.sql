-- Held out: written, and its expectations computed, before Polars SQL's
-- trigonometry in degrees (SIND, COSD, TAND, COTD, ASIND, ACOSD, ATAND,
-- ATAN2D) was translated.

-- name: h_deg_forward
-- inputs: df=nums
SELECT id, SIND(d) AS s, COSD(i) AS c, TAND(d) AS t, COTD(d) AS ct FROM {df}

-- name: h_deg_inverse
-- inputs: df=nums
SELECT id, ASIND(d / 4) AS a, ACOSD(d / 4) AS c, ATAND(d) AS t, ATAN2D(d, i) AS t2 FROM {df}

-- name: h_deg_texts
-- inputs: df=texts
SELECT id, SIND(f) AS s, ATAND(f) AS t FROM {df}

-- name: h_deg_f32
-- inputs: df=nums
SELECT SIND(f) AS s FROM {df}

"""The placer's grid search tests hundreds of spots at once (numpy); it must pick exactly the
spot that testing them one by one with fits() would."""

from __future__ import annotations

import random

from render.placer import Placer, _box_probes, _grid_inside


def test_the_grid_search_agrees_with_fits_one_spot_at_a_time() -> None:
    rng = random.Random(1817)
    for _ in range(60):
        placer = Placer()
        for _ in range(rng.randint(0, 6)):
            placer.take((rng.uniform(-30, 30), rng.uniform(-30, 30)), rng.uniform(3, 15))
        for _ in range(rng.randint(0, 4)):
            a = (rng.uniform(-45, 45), rng.uniform(-45, 45))
            b = rng.choice([a, (rng.uniform(-45, 45), rng.uniform(-45, 45))])  # a point is a segment too
            placer.take_polyline([a, b], rng.uniform(2, 6))
        w, h = rng.uniform(8, 70), rng.choice([8.0, 11.0, 16.0, 18.0])
        probes = _box_probes(w, h)
        points, array = _grid_inside((0.0, rng.choice([-31.0, 0.0, 31.0])), w / 2, h / 2, probes[0][2])
        one_by_one = next((k for k, p in enumerate(points) if placer.fits_box(p, w, h)), None)
        assert placer.first_free(array, probes) == one_by_one

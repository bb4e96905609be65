"""Small convolutional networks trained on CPU with torch (an authoring-only dependency).

``cnn`` (image classification) is a LeNet-style network: two or three blocks of 3x3 convolutions with
batch normalisation, ReLU and max pooling, then dropout and a linear layer; trained with AdamW and a
one-cycle learning-rate schedule on cross-entropy. ``augment`` draws a random affine transform per image
and epoch (rotation up to ``rotate`` degrees, shift up to ``shift`` of the side, scale within
``1 +- scale``). ``unet`` (binary segmentation) is a two-level U-Net trained on random flips and
quarter turns with Dice plus cross-entropy loss.

torch is imported only when a network is trained, so the rest of the package runs without it; a
solution that needs it fails with a message naming the authoring requirements. Every fit is seeded and
runs on one CPU thread, so it gives the same predictions on every run on the same machine.
"""

from __future__ import annotations

from typing import Any

import numpy as np

__all__ = ["predict_cnn", "predict_unet"]


def _torch() -> Any:
    try:
        import torch
    except ImportError as err:  # pragma: no cover - depends on the environment
        raise RuntimeError(
            "the network reference solutions need torch (CPU build); pip install -e '.[authoring]'"
        ) from err
    torch.set_num_threads(1)
    torch.use_deterministic_algorithms(True)
    return torch


def _affine(torch: Any, x: Any, generator: Any, rotate: float, shift: float, scale: float) -> Any:
    n = x.shape[0]
    angle = (torch.rand(n, generator=generator) * 2 - 1) * rotate * np.pi / 180
    zoom = 1 + (torch.rand(n, generator=generator) * 2 - 1) * scale
    offset = (torch.rand(n, 2, generator=generator) * 2 - 1) * shift * 2
    cos, sin = torch.cos(angle) / zoom, torch.sin(angle) / zoom
    theta = torch.stack(
        [torch.stack([cos, -sin, offset[:, 0]], 1), torch.stack([sin, cos, offset[:, 1]], 1)], 1
    )
    grid = torch.nn.functional.affine_grid(theta, list(x.shape), align_corners=False)
    return torch.nn.functional.grid_sample(x, grid, align_corners=False, padding_mode="zeros")


def _classifier(torch: Any, side: int, classes: int, width: int, blocks: int) -> Any:
    nn = torch.nn
    layers: list = []
    channels, size = 1, side
    for b in range(blocks):
        out = width * 2**b
        layers += [
            nn.Conv2d(channels, out, 3, padding=1),
            nn.BatchNorm2d(out),
            nn.ReLU(),
            nn.Conv2d(out, out, 3, padding=1),
            nn.BatchNorm2d(out),
            nn.ReLU(),
            nn.MaxPool2d(2),
        ]
        channels, size = out, size // 2
    layers += [nn.Flatten(), nn.Dropout(0.3), nn.Linear(channels * size * size, classes)]
    return nn.Sequential(*layers)


def predict_cnn(
    train: np.ndarray, labels: np.ndarray, test: np.ndarray, options: dict, seed: int
) -> np.ndarray:
    """Class probabilities ``(len(test), classes)`` of a CNN fitted on ``train`` (``(n, h, w)`` in [0, 1]).

    ``labels`` are class indices 0..classes-1. Options: ``epochs``, ``width`` (channels of the first
    block), ``blocks``, ``augment`` (bool), ``rotate``, ``shift``, ``scale``, ``lr``, ``batch``.
    """
    torch = _torch()
    torch.manual_seed(seed)
    generator = torch.Generator().manual_seed(seed)
    classes = int(labels.max()) + 1
    side = train.shape[1]
    model = _classifier(torch, side, classes, int(options.get("width", 16)), int(options.get("blocks", 2)))
    x = torch.from_numpy(np.ascontiguousarray(train[:, None], dtype=np.float32))
    y = torch.from_numpy(labels.astype(np.int64))
    epochs, batch = int(options.get("epochs", 10)), int(options.get("batch", 64))
    steps = epochs * ((len(x) + batch - 1) // batch)
    optimiser = torch.optim.AdamW(model.parameters(), lr=float(options.get("lr", 3e-3)), weight_decay=1e-4)
    schedule = torch.optim.lr_scheduler.OneCycleLR(
        optimiser, max_lr=optimiser.param_groups[0]["lr"], total_steps=steps
    )
    augment = bool(options.get("augment", False))
    rotate, shift, scale = (
        float(options.get(k, d)) for k, d in (("rotate", 10), ("shift", 0.1), ("scale", 0.1))
    )
    model.train()
    for _ in range(epochs):
        order = torch.randperm(len(x), generator=generator)
        for start in range(0, len(x), batch):
            pick = order[start : start + batch]
            xb = x[pick]
            if augment:
                xb = _affine(torch, xb, generator, rotate, shift, scale)
            loss = torch.nn.functional.cross_entropy(model(xb), y[pick])
            optimiser.zero_grad()
            loss.backward()
            optimiser.step()
            schedule.step()
    model.eval()
    out = []
    with torch.no_grad():
        t = torch.from_numpy(np.ascontiguousarray(test[:, None], dtype=np.float32))
        for start in range(0, len(t), 500):
            out.append(torch.softmax(model(t[start : start + 500]), dim=1).numpy())
    return np.concatenate(out)


def _unet(torch: Any, width: int) -> Any:
    nn = torch.nn

    def block(a: int, b: int) -> Any:
        return nn.Sequential(
            nn.Conv2d(a, b, 3, padding=1), nn.BatchNorm2d(b), nn.ReLU(),
            nn.Conv2d(b, b, 3, padding=1), nn.BatchNorm2d(b), nn.ReLU(),
        )  # fmt: skip

    class UNet(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            w = width
            self.down1, self.down2, self.bottom = block(1, w), block(w, 2 * w), block(2 * w, 4 * w)
            self.up2, self.dec2 = nn.ConvTranspose2d(4 * w, 2 * w, 2, stride=2), block(4 * w, 2 * w)
            self.up1, self.dec1 = nn.ConvTranspose2d(2 * w, w, 2, stride=2), block(2 * w, w)
            self.head = nn.Conv2d(w, 1, 1)

        def forward(self, x: Any) -> Any:
            d1 = self.down1(x)
            d2 = self.down2(nn.functional.max_pool2d(d1, 2))
            b = self.bottom(nn.functional.max_pool2d(d2, 2))
            u2 = self.dec2(torch.cat([self.up2(b), d2], 1))
            u1 = self.dec1(torch.cat([self.up1(u2), d1], 1))
            return self.head(u1)

    return UNet()


def predict_unet(
    train: np.ndarray, masks: np.ndarray, test: np.ndarray, options: dict, seed: int
) -> np.ndarray:
    """Foreground probabilities ``(len(test), h, w)`` of a U-Net fitted on images ``train`` and ``masks``.

    Options: ``steps`` (optimiser steps), ``width`` (channels of the first level), ``batch``, ``lr``,
    ``augment`` (random flips and quarter turns; default on). Sides must be divisible by 4.
    """
    torch = _torch()
    torch.manual_seed(seed)
    generator = torch.Generator().manual_seed(seed)
    model = _unet(torch, int(options.get("width", 16)))
    x = torch.from_numpy(np.ascontiguousarray(train[:, None], dtype=np.float32))
    y = torch.from_numpy(np.ascontiguousarray(masks[:, None], dtype=np.float32))
    steps, batch = int(options.get("steps", 400)), int(options.get("batch", 8))
    lr = float(options.get("lr", 3e-3))
    optimiser = torch.optim.AdamW(model.parameters(), lr=lr, weight_decay=1e-4)
    schedule = torch.optim.lr_scheduler.OneCycleLR(optimiser, max_lr=lr, total_steps=steps)
    augment = bool(options.get("augment", True))
    model.train()
    for _ in range(steps):
        pick = torch.randint(len(x), (batch,), generator=generator)
        xb, yb = x[pick], y[pick]
        if augment:
            turns = int(torch.randint(4, (1,), generator=generator))
            flip = bool(torch.randint(2, (1,), generator=generator))
            xb, yb = torch.rot90(xb, turns, (2, 3)), torch.rot90(yb, turns, (2, 3))
            if flip:
                xb, yb = torch.flip(xb, (3,)), torch.flip(yb, (3,))
        logits = model(xb)
        p = torch.sigmoid(logits)
        dice = 1 - (2 * (p * yb).sum() + 1) / (p.sum() + yb.sum() + 1)
        loss = torch.nn.functional.binary_cross_entropy_with_logits(logits, yb) + dice
        optimiser.zero_grad()
        loss.backward()
        optimiser.step()
        schedule.step()
    model.eval()
    with torch.no_grad():
        t = torch.from_numpy(np.ascontiguousarray(test[:, None], dtype=np.float32))
        views = [torch.sigmoid(model(torch.flip(t, (3,)) if f else t)) for f in (False, True)]
        mean = (views[0] + torch.flip(views[1], (3,))) / 2  # test-time flip averaging
    return mean[:, 0].numpy()

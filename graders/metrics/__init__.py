"""Metric functions: pure, aligned arrays in, one float out. Register new ones in ``graders/registry.py``."""

from .accuracy import accuracy
from .dice_rle import dice_rle
from .log_loss import log_loss
from .regression import mae, rmse, rmsle
from .roc_auc import roc_auc

__all__ = ["accuracy", "dice_rle", "log_loss", "mae", "rmse", "rmsle", "roc_auc"]

"""Metric functions: pure, aligned arrays in, one float out. Register new ones in ``graders/registry.py``."""

from .accuracy import (
    accuracy,
    top1_error,  # family A from here on
)
from .agreement import mcc, quadratic_weighted_kappa
from .bias_auc import jigsaw_bias_auc
from .cell_order import kendall_tau_cell_order
from .coco_map import coco_map  # family B from here on
from .correlation import pearson, spearman_mean_columns
from .dice_global_rle import dice_global_rle
from .dice_hausdorff import dice_hausdorff
from .dice_rle import dice_rle
from .dice_rle_sized import dice_rle_sized
from .edit_distance import levenshtein_mean, normalized_levenshtein
from .f1 import f1_macro, f1_micro, f1_micro_multilabel, probabilistic_f1
from .f_beta_rle import f_beta_rle
from .haversine_p50_p95 import haversine_p50_p95
from .iou_threshold_precision import iou_threshold_precision
from .jaccard import jaccard_words
from .kl_divergence import kl_divergence
from .kuzushiji_f1 import kuzushiji_f1
from .laplace_log_likelihood import laplace_log_likelihood
from .log_loss import binary_log_loss, log_loss
from .log_mae_by_group import log_mae_by_group
from .mae_masked import mae_masked
from .map_3d import map_3d
from .mcrmse import mcrmse
from .mean_angular_error import mean_angular_error
from .mean_rmsle_columns import mean_rmsle_columns
from .ranking import lwlrap, map_at_k
from .regression import mae, rmse, rmsle
from .roc_auc import roc_auc, roc_auc_flattened, roc_auc_mean_columns
from .voc_map import voc_map
from .weighted_auc import roc_auc_weighted_tpr
from .weighted_log_loss import weighted_multilabel_log_loss

__all__ = ["accuracy", "dice_rle", "log_loss", "mae", "rmse", "rmsle", "roc_auc"]
__all__ += [  # family A
    "binary_log_loss", "f1_macro", "f1_micro", "f1_micro_multilabel", "jaccard_words",
    "kendall_tau_cell_order", "kl_divergence", "levenshtein_mean", "lwlrap", "map_at_k", "mcc",
    "normalized_levenshtein", "pearson", "probabilistic_f1", "quadratic_weighted_kappa",
    "roc_auc_flattened", "roc_auc_mean_columns", "roc_auc_weighted_tpr", "spearman_mean_columns",
    "top1_error", "jigsaw_bias_auc", "kuzushiji_f1", "weighted_multilabel_log_loss",
]
__all__ += ["dice_rle_sized", "mae_masked"]  # hubmap, ventilator
__all__ += [  # family B
    "coco_map", "dice_global_rle", "dice_hausdorff", "f_beta_rle", "haversine_p50_p95",
    "iou_threshold_precision", "laplace_log_likelihood", "log_mae_by_group", "map_3d", "mcrmse",
    "mean_angular_error", "mean_rmsle_columns", "voc_map",
]

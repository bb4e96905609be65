"""Metric functions: pure, aligned arrays in, one float out, one concept per module.

Each registered metric's function (and the ``scored_rows`` helpers its entry names) is exported here under
its registry name (:mod:`graders.inputs`), which :mod:`graders.registry` looks up.
"""

from .ab_tests import ab_test_score
from .accuracy import accuracy, top1_error
from .agreement import mcc, quadratic_weighted_kappa
from .bias_auc import jigsaw_bias_auc, jigsaw_bias_auc_fixed
from .cell_order import kendall_tau_cell_order
from .change_points import change_point_f1
from .coco_map import coco_map, coco_map_fixed
from .correlation import pearson, spearman_mean_columns
from .dice_global_rle import dice_global_rle
from .dice_hausdorff import dice_hausdorff, dice_hausdorff_fixed
from .dice_rle import dice_rle
from .dice_rle_sized import dice_rle_sized
from .edit_distance import levenshtein_mean, normalized_levenshtein
from .f1 import f1_macro, f1_micro, f1_micro_multilabel, f1_micro_multilabel_fixed, probabilistic_f1
from .f_beta_rle import f_beta_rle
from .gini import normalized_gini
from .haversine_p50_p95 import haversine_p50_p95, haversine_p50_p95_fixed
from .iou_threshold_precision import iou_threshold_precision, iou_threshold_precision_fixed
from .jaccard import jaccard_words, jaccard_words_fixed
from .kl_divergence import kl_divergence
from .kuzushiji_f1 import kuzushiji_f1
from .laplace_log_likelihood import laplace_log_likelihood, last_weeks_rows
from .log_loss import binary_log_loss, log_loss
from .log_mae_by_group import log_mae_by_group, log_mae_by_group_fixed
from .mae_masked import kept_rows, mae_masked
from .map_3d import map_3d
from .mcrmse import mcrmse, mcrmse_fixed
from .mean_angular_error import mean_angular_error
from .mean_rmsle_columns import mean_rmsle_columns, mean_rmsle_columns_fixed
from .ranking import lwlrap, map_at_k
from .regression import mae, rmse, rmsle
from .roc_auc import labelled_rows, roc_auc, roc_auc_flattened, roc_auc_mean_columns
from .voc_map import voc_map
from .weighted_auc import roc_auc_weighted_tpr
from .weighted_log_loss import weighted_multilabel_log_loss

__all__ = [
    "normalized_gini",
    "ab_test_score",
    "accuracy",
    "binary_log_loss",
    "change_point_f1",
    "coco_map",
    "coco_map_fixed",
    "dice_global_rle",
    "dice_hausdorff",
    "dice_hausdorff_fixed",
    "dice_rle",
    "dice_rle_sized",
    "f1_macro",
    "f1_micro",
    "f1_micro_multilabel",
    "f1_micro_multilabel_fixed",
    "f_beta_rle",
    "haversine_p50_p95",
    "haversine_p50_p95_fixed",
    "iou_threshold_precision",
    "iou_threshold_precision_fixed",
    "jaccard_words",
    "jaccard_words_fixed",
    "jigsaw_bias_auc",
    "jigsaw_bias_auc_fixed",
    "kendall_tau_cell_order",
    "kept_rows",
    "kl_divergence",
    "kuzushiji_f1",
    "labelled_rows",
    "laplace_log_likelihood",
    "last_weeks_rows",
    "levenshtein_mean",
    "log_loss",
    "log_mae_by_group",
    "log_mae_by_group_fixed",
    "lwlrap",
    "mae",
    "mae_masked",
    "map_3d",
    "map_at_k",
    "mcc",
    "mcrmse",
    "mcrmse_fixed",
    "mean_angular_error",
    "mean_rmsle_columns",
    "mean_rmsle_columns_fixed",
    "normalized_levenshtein",
    "pearson",
    "probabilistic_f1",
    "quadratic_weighted_kappa",
    "rmse",
    "rmsle",
    "roc_auc",
    "roc_auc_flattened",
    "roc_auc_mean_columns",
    "roc_auc_weighted_tpr",
    "spearman_mean_columns",
    "top1_error",
    "voc_map",
    "weighted_multilabel_log_loss",
]

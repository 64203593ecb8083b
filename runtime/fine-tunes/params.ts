/**
 * The body of `POST /api/repos/{namespace}/{repo_name}/fine_tunes` (`client.fineTunes.create`),
 * written from the `training_params` tables of the API description (v0.224.2), and `text_to_video`
 * from the service's docs today (`fine-tuning-api/reference/text_to_video.mdx` in `Oxen-AI/docs`):
 * a union discriminated by `script_type`, each with its own `training_params`. Columns marked
 * required by the tables are required; every other parameter is optional and documented with its
 * default and minimum. Names match `components.schemas` of `specs/openapi.yaml`.
 */

// ---------------------------------------------------------------------------------------------
// Text-type script types: text_generation, text_chat_messages, image_to_text

/** Parameters common to the three text-type script types (`text_generation`, `text_chat_messages`, `image_to_text`). */
export interface TextTrainingParamsBase {
  /**
   * Batch size.
   * @default 1
   * @minimum 1
   */
  batch_size?: number;
  /**
   * Enable thinking.
   * @default false
   */
  enable_thinking?: boolean;
  /**
   * Number of epochs.
   * @default 1
   * @minimum 1
   */
  epochs?: number;
  /**
   * Gradient accumulation steps.
   * @default 1
   * @minimum 1
   */
  grad_accum?: number;
  /**
   * Learning rate.
   * @default 0.0001
   * @minimum 0
   */
  learning_rate?: number;
  /**
   * Steps between log lines.
   * @default 10
   * @minimum 1
   */
  logging_steps?: number;
  /**
   * LoRA alpha.
   * @default 16
   * @minimum 1
   */
  lora_alpha?: number;
  /**
   * LoRA rank.
   * @default 16
   * @minimum 1
   */
  lora_rank?: number;
  /**
   * NEFTune noise alpha.
   * @default 0
   * @minimum 0
   */
  neftune_noise_alpha?: number;
  /**
   * Save steps ratio.
   * @default 0.25
   */
  save_steps_ratio?: number;
  /**
   * Save strategy.
   * @default "epoch"
   */
  save_strategy?: string;
  /**
   * Sequence length in tokens.
   * @default 1024
   * @minimum 1
   */
  seq_length?: number;
  /**
   * Train a LoRA adapter.
   * @default true
   */
  use_lora?: boolean;
}

/** `training_params` of script type `text_generation`. */
export interface TextGenerationTrainingParams extends TextTrainingParamsBase {
  /** Dataset column holding the answers. Required. */
  answer_column: string;
  /** Dataset column holding the questions. Required. */
  question_column: string;
}

/** `training_params` of script type `text_chat_messages`. */
export interface TextChatMessagesTrainingParams extends TextTrainingParamsBase {
  /** Dataset column holding the chat messages. Required. */
  messages_column: string;
}

/** `training_params` of script type `image_to_text`. */
export interface ImageToTextTrainingParams extends Omit<TextTrainingParamsBase, 'seq_length'> {
  /** Dataset column holding the answers. Required. */
  answer_column: string;
  /** Dataset column holding the questions. Required. */
  question_column: string;
  /**
   * Dataset columns holding image file paths. Required.
   * @default []
   */
  image_columns: string[];
  /**
   * Sequence length in tokens.
   * @default 4096
   * @minimum 1
   */
  seq_length?: number;
}

// ---------------------------------------------------------------------------------------------
// Image and video script types: image_generation, image_editing, multi_image_editing, image_to_video, text_to_video

/** Parameters common to the five image and video script types. */
export interface MediaTrainingParamsBase {
  /** Dataset column holding the captions. Required. */
  caption_column: string;
  /** Dataset column holding the target (output) images. Required. */
  image_column: string;
  /**
   * Batch size.
   * @default 1
   * @minimum 1
   */
  batch_size?: number;
  /**
   * Gradient accumulation steps.
   * @default 1
   * @minimum 1
   */
  gradient_accumulation?: number;
  /**
   * Learning rate.
   * @default 0.0002
   */
  learning_rate?: number;
  /**
   * LoRA alpha.
   * @default 16
   * @minimum 1
   */
  lora_alpha?: number;
  /**
   * LoRA rank.
   * @default 16
   * @minimum 1
   */
  lora_rank?: number;
  /**
   * Steps between progress samples.
   * @default 200
   * @minimum 1
   */
  sample_every?: number;
}

/** A progress sample of `image_generation`, `image_to_video` and `text_to_video` fine-tunes. */
export interface TrainingSample {
  prompt: string;
}

/** A progress sample of `image_editing` fine-tunes. */
export interface ControlImageTrainingSample {
  /** URL of the control (input) image. */
  ctrl_img_url: string;
  prompt: string;
}

/** A progress sample of `multi_image_editing` fine-tunes. */
export interface MultiControlImageTrainingSample {
  /** URLs of the control (input) images. */
  ctrl_img_urls: string[];
  prompt: string;
}

/** `training_params` of script type `image_generation`. */
export interface ImageGenerationTrainingParams extends MediaTrainingParamsBase {
  /**
   * Training steps.
   * @default 2000
   * @minimum 1
   */
  steps?: number;
  /**
   * Timestep sampling.
   * @default "sigmoid"
   */
  timestep_type?: 'weighted' | 'sigmoid' | 'linear';
  /**
   * Train a LoRA adapter.
   * @default true
   */
  use_lora?: boolean;
  /** Samples used to show progress during training. Default: a built-in list of two items (values not shown by the description). */
  samples?: TrainingSample[];
}

/** `training_params` of script type `image_editing`. */
export interface ImageEditingTrainingParams extends MediaTrainingParamsBase {
  /** Dataset column holding the input (control) images. Required. */
  control_image_column: string;
  /**
   * Height of progress samples in pixels.
   * @default 1024
   * @minimum 1
   */
  sample_height?: number;
  /**
   * Width of progress samples in pixels.
   * @default 1024
   * @minimum 1
   */
  sample_width?: number;
  /**
   * Cache text embeddings.
   * @default false
   */
  cache_text_embeddings?: boolean;
  /**
   * Training steps.
   * @default 3000
   * @minimum 1
   */
  steps?: number;
  /**
   * Timestep sampling.
   * @default "weighted"
   */
  timestep_type?: 'weighted' | 'sigmoid' | 'linear';
  /**
   * Train a LoRA adapter.
   * @default true
   */
  use_lora?: boolean;
  /** Samples used to show progress during training. Default: a built-in list of two items (values not shown by the description). */
  samples?: ControlImageTrainingSample[];
}

/** `training_params` of script type `multi_image_editing`. */
export interface MultiImageEditingTrainingParams extends MediaTrainingParamsBase {
  /**
   * Dataset columns holding the input (control) images. Required.
   * @default []
   */
  control_image_columns: string[];
  /**
   * Height of progress samples in pixels.
   * @default 1024
   * @minimum 1
   */
  sample_height?: number;
  /**
   * Width of progress samples in pixels.
   * @default 1024
   * @minimum 1
   */
  sample_width?: number;
  /**
   * Training steps.
   * @default 3000
   * @minimum 1
   */
  steps?: number;
  /**
   * Timestep sampling.
   * @default "weighted"
   */
  timestep_type?: 'weighted' | 'sigmoid' | 'linear';
  /**
   * Train a LoRA adapter.
   * @default true
   */
  use_lora?: boolean;
  /** Samples used to show progress during training. Default: a built-in list of two items (values not shown by the description). */
  samples?: MultiControlImageTrainingSample[];
}

/** `training_params` of script type `text_to_video` (the docs' `text_to_video.mdx`; `image_column` names the training media). */
export interface TextToVideoTrainingParams extends MediaTrainingParamsBase {
  /**
   * Training steps.
   * @default 3000
   * @minimum 1
   */
  steps?: number;
  /**
   * Timestep sampling.
   * @default "weighted"
   */
  timestep_type?: 'weighted' | 'sigmoid' | 'linear';
  /** Train a LoRA adapter. Listed without a default. */
  use_lora?: boolean;
  /** Samples used to show progress during training. Default: a built-in list of two items. */
  samples?: TrainingSample[];
}

/** `training_params` of script type `image_to_video`: those of `text_to_video` and `num_frames`. */
export interface ImageToVideoTrainingParams extends TextToVideoTrainingParams {
  /**
   * Frames per generated clip.
   * @default 81
   * @minimum 1
   */
  num_frames?: number;
}

// ---------------------------------------------------------------------------------------------
// The creation body

/** Fields of every fine-tune creation body. */
export interface FineTuneCreateBase {
  /** Dataset file in the repository: a revision name, a slash, then the file path (e.g. `main/data/train.jsonl`). */
  resource: string;
  /** Canonical name of a base model supported by the chosen `script_type` (the names are not listed by the description). */
  base_model: string;
}

/** Fine-tune body for `text_generation` (7 supported base models). */
export interface FineTuneCreateTextGeneration extends FineTuneCreateBase {
  script_type: 'text_generation';
  training_params: TextGenerationTrainingParams;
}
/** Fine-tune body for `text_chat_messages` (7 supported base models). */
export interface FineTuneCreateTextChatMessages extends FineTuneCreateBase {
  script_type: 'text_chat_messages';
  training_params: TextChatMessagesTrainingParams;
}
/** Fine-tune body for `image_to_text` (3 supported base models). */
export interface FineTuneCreateImageToText extends FineTuneCreateBase {
  script_type: 'image_to_text';
  training_params: ImageToTextTrainingParams;
}
/** Fine-tune body for `image_generation` (4 supported base models). */
export interface FineTuneCreateImageGeneration extends FineTuneCreateBase {
  script_type: 'image_generation';
  training_params: ImageGenerationTrainingParams;
}
/** Fine-tune body for `image_editing` (2 supported base models). */
export interface FineTuneCreateImageEditing extends FineTuneCreateBase {
  script_type: 'image_editing';
  training_params: ImageEditingTrainingParams;
}
/** Fine-tune body for `multi_image_editing` (2 supported base models). */
export interface FineTuneCreateMultiImageEditing extends FineTuneCreateBase {
  script_type: 'multi_image_editing';
  training_params: MultiImageEditingTrainingParams;
}
/** Fine-tune body for `image_to_video` (3 supported base models). */
export interface FineTuneCreateImageToVideo extends FineTuneCreateBase {
  script_type: 'image_to_video';
  training_params: ImageToVideoTrainingParams;
}
/** Fine-tune body for `text_to_video` (3 supported base models, e.g. `Wan-AI/Wan2.1-T2V-1.3B-Diffusers`). */
export interface FineTuneCreateTextToVideo extends FineTuneCreateBase {
  script_type: 'text_to_video';
  training_params: TextToVideoTrainingParams;
}

/**
 * The body of `client.fineTunes.create`: discriminated by `script_type`, whose value selects the
 * `training_params` type (e.g. `script_type: 'image_editing'` requires `control_image_column`).
 */
export type FineTuneCreateParams =
  | FineTuneCreateTextGeneration
  | FineTuneCreateTextChatMessages
  | FineTuneCreateImageToText
  | FineTuneCreateImageGeneration
  | FineTuneCreateImageEditing
  | FineTuneCreateMultiImageEditing
  | FineTuneCreateImageToVideo
  | FineTuneCreateTextToVideo;

/** The same union under the name `specs/openapi.yaml` gives it (`components.schemas.FineTuneCreateRequest`). */
export type FineTuneCreateRequest = FineTuneCreateParams;

/** The script types of fine-tunes. */
export type FineTuneScriptType = FineTuneCreateParams['script_type'];

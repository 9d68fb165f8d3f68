// One harness for unit tests under src and integration tests here; it lives beside the driver.
export {
  startTestS3,
  TEST_S3_ACCESS_KEY,
  type TestS3,
  type TestS3Env,
  type TestS3Options,
} from '../../src/storage/testing/s3rver.js';

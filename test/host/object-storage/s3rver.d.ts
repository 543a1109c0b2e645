// The part of s3rver (which ships no types) that the tests use.
declare module "s3rver" {
  import type { AddressInfo } from "node:net";

  interface S3rverRecord {
    eventName: string;
    s3: { object: { key: string } };
  }

  export default class S3rver {
    constructor(options: {
      address: string;
      port: number;
      silent: boolean;
      directory: string;
      configureBuckets: { name: string }[];
    });
    run(): Promise<AddressInfo>;
    close(): Promise<void>;
    on(event: "event", listener: (event: { Records: S3rverRecord[] }) => void): this;
  }
}
